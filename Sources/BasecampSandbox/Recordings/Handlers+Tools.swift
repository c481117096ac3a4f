import HTTPCore

/// Every project's card table, schedule, Campfire and check-ins, and what they hold.
extension Handlers {
    /// Answers a dock tool's own operations; `nil` for any other.
    func toolReply() throws -> APIReply? {
        switch request.operation.id {
        case "GetCardTable": return try tool(.cardTable, "cardTableId")
        case "GetSchedule": return try tool(.schedule, "scheduleId")
        case "GetCampfire": return try tool(.campfire, "campfireId")
        case "GetQuestionnaire": return try tool(.questionnaire, "questionnaireId")
        case "ListCampfires":
            let data = store.snapshot()
            let render = renderer(data)
            return .list(data.projects.filter { $0.status == "active" }) { render.tool(.campfire, projectID: $0.id) }
        default: return nil
        }
    }

    private func tool(_ tool: ProjectTool, _ parameter: String) throws -> APIReply {
        let data = store.snapshot()
        let id = try id(parameter)
        guard let project = data.project(ofTool: tool, id: id) else { throw APIFailure.notFound("\(tool.title) \(id)") }
        return .json(renderer(data).tool(tool, projectID: project.id), status: 200)
    }
}
