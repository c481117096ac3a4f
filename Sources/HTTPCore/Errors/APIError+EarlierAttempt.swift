extension APIError {
    /// This error, marked as ending a call whose earlier attempt may have been applied
    /// (``Details/earlierAttemptMayHaveBeenApplied``), with a hint that says so first.
    func notingEarlierAttempt() -> APIError {
        guard !details.earlierAttemptMayHaveBeenApplied else { return self }
        var details = details
        details.earlierAttemptMayHaveBeenApplied = true
        let note = "An earlier attempt of this request may already have been applied; check the resource's state."
        details.hint = details.hint.map { "\(note) \($0)" } ?? note
        return APIError(code, details)
    }
}
