/// A state file as the sandbox wrote it before every kept kind became one record type (layout 1),
/// made by `basecamp --sandbox` of that version and cut down: a created project, to-do (completed,
/// commented), message (unsubscribed, archived), to-do list, renamed root vault, folder, upload
/// with two versions, document, card with a bookmark, and a webhook with a failed delivery.
let layoutOneStateFile = #"""
    {
     "accountID": 195539477,
     "accountName": "Honcho Design",
     "comments": [
      {
       "content": "<div>Great news!</div>",
       "createdAt": "2026-01-08T15:15:00.000Z",
       "creatorID": 1049715914,
       "id": 1069500128,
       "projectID": 2085958504,
       "recordingID": 1069479988,
       "status": "active",
       "updatedAt": "2026-01-08T15:15:00.000Z"
      },
      {
       "content": "<div>Noted.</div>",
       "createdAt": "2026-11-28T19:00:10.448Z",
       "creatorID": 1049715913,
       "id": 1069500184,
       "projectID": 2085958504,
       "recordingID": 1069500173,
       "status": "active",
       "updatedAt": "2026-11-28T19:00:10.448Z"
      }
     ],
     "files": {
      "attachments": [
       {
        "contentType": "image/png",
        "createdAt": "2026-01-20T09:15:00.000Z",
        "data": "c2VlZGVkIGxvZ28gYnl0ZXM=",
        "filename": "company-logo.png",
        "sgid": "BAh7CEkiCGdpZAY6BkVU",
        "storageKey": "seeded-company-logo"
       },
       {
        "contentType": "text/plain",
        "createdAt": "2026-11-28T19:00:27.123Z",
        "data": "bGF5b3V0IG9uZSBieXRlcw==",
        "filename": "plan.txt",
        "sgid": "BAh7CEkiCGdpZAY6BkVUSSI1069500189",
        "storageKey": "C7EDF38F-F0BE-40A2-B014-B194F5921B04"
       },
       {
        "contentType": "text/plain",
        "createdAt": "2026-11-28T19:00:32.331Z",
        "data": "bGF5b3V0IG9uZSBieXRlcywgc2Vjb25kIHZlcnNpb24=",
        "filename": "plan2.txt",
        "sgid": "BAh7CEkiCGdpZAY6BkVUSSI1069500192",
        "storageKey": "E7A8991F-2E58-4A76-8F06-4A25745BC780"
       }
      ],
      "documents": [
       {
        "content": "<div>Version 1.0: the flux capacitor ships.</div>",
        "createdAt": "2026-01-20T09:15:00.000Z",
        "creatorID": 1049715913,
        "id": 1069481024,
        "projectID": 2085958504,
        "status": "active",
        "title": "Release notes",
        "updatedAt": "2026-01-20T09:15:00.000Z",
        "vaultID": 4085958504
       },
       {
        "content": "<div>Two rooms.</div>",
        "createdAt": "2026-11-28T19:00:33.900Z",
        "creatorID": 1049715913,
        "id": 1069500194,
        "projectID": 2085958504,
        "status": "active",
        "title": "Floor plan notes",
        "updatedAt": "2026-11-28T19:00:33.900Z",
        "vaultID": 1069500188
       }
      ],
      "uploads": [
       {
        "createdAt": "2026-01-20T09:15:00.000Z",
        "creatorID": 1049715913,
        "description": "<div>The logo, for the laptop's lid.</div>",
        "filename": "company-logo.png",
        "id": 1069479913,
        "projectID": 2085958504,
        "sgid": "BAh7CEkiCGdpZAY6BkVU",
        "status": "active",
        "updatedAt": "2026-01-20T09:15:00.000Z",
        "vaultID": 4085958504,
        "versions": []
       },
       {
        "createdAt": "2026-11-28T19:00:27.263Z",
        "creatorID": 1049715913,
        "description": "<div>The plan</div>",
        "filename": "plan2.txt",
        "id": 1069500190,
        "projectID": 2085958504,
        "sgid": "BAh7CEkiCGdpZAY6BkVUSSI1069500192",
        "status": "active",
        "updatedAt": "2026-11-28T19:00:32.539Z",
        "vaultID": 1069500188,
        "versions": [
         "BAh7CEkiCGdpZAY6BkVUSSI1069500189"
        ]
       }
      ],
      "vaults": [
       {
        "createdAt": "2026-01-08T09:15:00.000Z",
        "creatorID": 1049715913,
        "id": 4085958504,
        "projectID": 2085958504,
        "status": "active",
        "title": "Leto files",
        "updatedAt": "2026-11-28T19:00:13.034Z"
       },
       {
        "createdAt": "2026-11-28T19:00:14.697Z",
        "creatorID": 1049715913,
        "id": 1069500188,
        "parentID": 4085958504,
        "projectID": 2085958504,
        "status": "active",
        "title": "Drawings",
        "updatedAt": "2026-11-28T19:00:14.697Z"
       }
      ]
     },
     "kept": {
      "bookmarks": [
       {
        "createdAt": "2026-11-28T19:00:38.807Z",
        "id": 1069500198,
        "personID": 1049715913,
        "recordingID": 1069500196
       }
      ],
      "events": [
       {
        "action": "created",
        "createdAt": "2026-11-28T18:59:55.591Z",
        "creatorID": 1049715913,
        "id": 1069500175,
        "projectID": 2085958504,
        "recordingID": 1069500173
       },
       {
        "action": "completed",
        "createdAt": "2026-11-28T19:00:04.370Z",
        "creatorID": 1049715913,
        "id": 1069500181,
        "projectID": 2085958504,
        "recordingID": 1069500173
       },
       {
        "action": "created",
        "createdAt": "2026-11-28T19:00:10.522Z",
        "creatorID": 1049715913,
        "id": 1069500185,
        "projectID": 2085958504,
        "recordingID": 1069500184
       },
       {
        "action": "created",
        "createdAt": "2026-11-28T19:00:11.697Z",
        "creatorID": 1049715913,
        "id": 1069500187,
        "projectID": 2085958504,
        "recordingID": 1069500186
       },
       {
        "action": "created",
        "createdAt": "2026-11-28T19:00:27.327Z",
        "creatorID": 1049715913,
        "id": 1069500191,
        "projectID": 2085958504,
        "recordingID": 1069500190
       },
       {
        "action": "created",
        "createdAt": "2026-11-28T19:00:32.588Z",
        "creatorID": 1049715913,
        "id": 1069500193,
        "projectID": 2085958504,
        "recordingID": 1069500190
       },
       {
        "action": "created",
        "createdAt": "2026-11-28T19:00:33.973Z",
        "creatorID": 1049715913,
        "id": 1069500195,
        "projectID": 2085958504,
        "recordingID": 1069500194
       },
       {
        "action": "created",
        "createdAt": "2026-11-28T19:00:35.318Z",
        "creatorID": 1049715913,
        "id": 1069500197,
        "projectID": 2085958504,
        "recordingID": 1069500196
       },
       {
        "action": "archived",
        "createdAt": "2026-11-28T19:00:41.691Z",
        "creatorID": 1049715913,
        "id": 1069500199,
        "projectID": 2085958504,
        "recordingID": 1069500186
       },
       {
        "action": "created",
        "createdAt": "2026-11-28T19:00:43.298Z",
        "creatorID": 1049715913,
        "id": 1069500201,
        "projectID": 2085958504,
        "recordingID": 1069500200
       }
      ],
      "recordings": [
       {
        "createdAt": "2026-01-21T10:15:00.000Z",
        "creatorID": 1049715913,
        "fields": {
         "title": "In progress"
        },
        "id": 1069490001,
        "kind": "cardColumn",
        "parentID": 32085958504,
        "projectID": 2085958504,
        "status": "active",
        "updatedAt": "2026-01-21T10:15:00.000Z"
       },
       {
        "createdAt": "2026-01-21T10:15:00.000Z",
        "creatorID": 1049715913,
        "fields": {
         "content": "<div>Aluminium, matte.</div>",
         "due_on": "2026-02-20",
         "title": "Order the laptop case"
        },
        "id": 1069490010,
        "kind": "card",
        "parentID": 1069490001,
        "projectID": 2085958504,
        "status": "active",
        "updatedAt": "2026-01-21T10:15:00.000Z"
       },
       {
        "createdAt": "2026-01-21T10:15:00.000Z",
        "creatorID": 1049715913,
        "fields": {
         "title": "Measure the lid"
        },
        "id": 1069490020,
        "kind": "cardStep",
        "parentID": 1069490010,
        "projectID": 2085958504,
        "status": "active",
        "updatedAt": "2026-01-21T10:15:00.000Z"
       },
       {
        "createdAt": "2026-01-23T10:15:00.000Z",
        "creatorID": 1049715913,
        "fields": {
         "content": "🎉"
        },
        "id": 1069490080,
        "kind": "boost",
        "parentID": 1069479988,
        "projectID": 2085958504,
        "status": "active",
        "updatedAt": "2026-01-23T10:15:00.000Z"
       },
       {
        "createdAt": "2026-11-28T19:00:35.246Z",
        "creatorID": 1049715913,
        "fields": {
         "content": "<div>Bubble wrap.</div>",
         "title": "Pack the prototypes"
        },
        "id": 1069500196,
        "kind": "card",
        "parentID": 1069490001,
        "projectID": 2085958504,
        "status": "active",
        "updatedAt": "2026-11-28T19:00:35.246Z"
       }
      ],
      "subscriptions": [
       {
        "personIDs": [],
        "recordingID": 1069500186
       }
      ]
     },
     "meID": 1049715913,
     "messageBoards": [
      {
       "createdAt": "2026-01-08T09:15:00.000Z",
       "id": 1069479340,
       "projectID": 2085958504
      },
      {
       "createdAt": "2026-11-28T18:59:52.739Z",
       "id": 1069500171,
       "projectID": 1069500169
      }
     ],
     "messages": [
      {
       "boardID": 1069479340,
       "content": "<div>Welcome aboard! The Leto ships in March; the Hardware list is where the work is.</div>",
       "createdAt": "2026-01-08T14:15:00.000Z",
       "creatorID": 1049715913,
       "id": 1069479988,
       "projectID": 2085958504,
       "status": "active",
       "subject": "Kickoff",
       "updatedAt": "2026-01-08T14:15:00.000Z"
      },
      {
       "boardID": 1069479340,
       "content": "<div>Boxes first.</div>",
       "createdAt": "2026-11-28T19:00:11.591Z",
       "creatorID": 1049715913,
       "id": 1069500186,
       "projectID": 2085958504,
       "status": "archived",
       "subject": "Moving notes",
       "updatedAt": "2026-11-28T19:00:41.571Z"
      }
     ],
     "nextID": 1069500202,
     "people": [
      {
       "companyID": 1033447817,
       "companyName": "Honcho Design",
       "createdAt": "2026-01-05T09:15:00.000Z",
       "email": "victor@honchodesign.com",
       "id": 1049715913,
       "isAdmin": true,
       "isClient": false,
       "isOwner": true,
       "name": "Victor Cooper",
       "title": "Chief Strategist"
      },
      {
       "companyID": 1033447817,
       "companyName": "Honcho Design",
       "createdAt": "2026-01-05T10:15:00.000Z",
       "email": "annie@honchodesign.com",
       "id": 1049715914,
       "isAdmin": true,
       "isClient": false,
       "isOwner": false,
       "name": "Annie Bryan",
       "title": "Designer"
      }
     ],
     "projects": [
      {
       "createdAt": "2026-01-08T09:15:00.000Z",
       "description": "Laptop product launch.",
       "id": 2085958504,
       "messageBoardID": 1069479340,
       "name": "The Leto Laptop",
       "peopleIDs": [
        1049715913,
        1049715914,
        1049715915,
        1049715916,
        1049715917,
        1049715918,
        1049715919
       ],
       "status": "active",
       "todosetID": 1069479300,
       "updatedAt": "2026-01-08T09:15:00.000Z"
      },
      {
       "createdAt": "2026-11-28T18:59:52.739Z",
       "description": "From layout 1",
       "id": 1069500169,
       "messageBoardID": 1069500171,
       "name": "Moved house",
       "peopleIDs": [
        1049715913
       ],
       "status": "active",
       "todosetID": 1069500170,
       "updatedAt": "2026-11-28T18:59:52.739Z"
      }
     ],
     "todolists": [
      {
       "createdAt": "2026-01-08T10:15:00.000Z",
       "creatorID": 1049715913,
       "description": "<div>Everything with a plug.</div>",
       "id": 1069479338,
       "name": "Hardware",
       "projectID": 2085958504,
       "status": "active",
       "todosetID": 1069479300,
       "updatedAt": "2026-01-08T10:15:00.000Z"
      },
      {
       "createdAt": "2026-01-10T11:15:00.000Z",
       "creatorID": 1049715913,
       "description": "<div>What has to be true on launch day.</div>",
       "id": 1069479341,
       "name": "Launch checklist",
       "projectID": 2085958504,
       "status": "active",
       "todosetID": 1069479300,
       "updatedAt": "2026-01-10T11:15:00.000Z"
      },
      {
       "createdAt": "2026-11-28T19:00:43.192Z",
       "creatorID": 1049715913,
       "description": "<div>All hands.</div>",
       "id": 1069500200,
       "name": "Moving day",
       "projectID": 2085958504,
       "status": "active",
       "todosetID": 1069479300,
       "updatedAt": "2026-11-28T19:00:43.192Z"
      }
     ],
     "todos": [
      {
       "assigneeIDs": [
        1049715914
       ],
       "completed": false,
       "completionSubscriberIDs": [
        1049715913
       ],
       "content": "Program the flux capacitor",
       "createdAt": "2026-01-09T08:15:00.000Z",
       "creatorID": 1049715913,
       "description": "<div>Use the <strong>1.21 gigawatt</strong> setting.</div>",
       "dueOn": "2026-02-06",
       "id": 1069479395,
       "projectID": 2085958504,
       "status": "active",
       "todolistID": 1069479338,
       "updatedAt": "2026-01-09T08:15:00.000Z"
      },
      {
       "assigneeIDs": [],
       "completed": true,
       "completionSubscriberIDs": [
        1049715913
       ],
       "content": "Book the launch venue",
       "createdAt": "2026-01-11T09:15:00.000Z",
       "creatorID": 1049715913,
       "description": "",
       "dueOn": "2026-02-22",
       "id": 1069500119,
       "projectID": 2085958504,
       "status": "active",
       "todolistID": 1069479341,
       "updatedAt": "2026-01-11T09:15:00.000Z"
      },
      {
       "assigneeIDs": [],
       "completed": false,
       "completionSubscriberIDs": [
        1049715913
       ],
       "content": "Publish the product page",
       "createdAt": "2026-01-11T12:15:00.000Z",
       "creatorID": 1049715913,
       "description": "",
       "dueOn": "2026-02-25",
       "id": 1069500122,
       "projectID": 2085958504,
       "status": "active",
       "todolistID": 1069479341,
       "updatedAt": "2026-01-11T12:15:00.000Z"
      },
      {
       "assigneeIDs": [
        1049715914
       ],
       "completed": true,
       "completionSubscriberIDs": [],
       "content": "Kept in layout 1",
       "createdAt": "2026-11-28T18:59:55.298Z",
       "creatorID": 1049715913,
       "description": "",
       "dueOn": "2026-03-01",
       "id": 1069500173,
       "projectID": 2085958504,
       "status": "active",
       "todolistID": 1069479341,
       "updatedAt": "2026-11-28T19:00:04.119Z"
      }
     ],
     "todosets": [
      {
       "createdAt": "2026-01-08T09:15:00.000Z",
       "id": 1069479300,
       "projectID": 2085958504
      },
      {
       "createdAt": "2026-11-28T18:59:52.739Z",
       "id": 1069500170,
       "projectID": 1069500169
      }
     ],
     "version": 1,
     "webhooks": [
      {
       "active": false,
       "createdAt": "2026-01-20T09:15:00.000Z",
       "deliveries": [],
       "id": 1069479351,
       "payloadURL": "https://example.com/hooks/basecamp",
       "projectID": 2085958504,
       "secret": "sandbox-webhook-secret",
       "types": [
        "Todo",
        "Comment"
       ],
       "updatedAt": "2026-01-20T09:15:00.000Z"
      },
      {
       "active": true,
       "createdAt": "2026-11-28T18:59:53.827Z",
       "deliveries": [
        {
         "createdAt": "2026-11-28T19:00:06.905Z",
         "id": 1069500183,
         "requestBody": "{\"id\":1069500174,\"kind\":\"todo_created\"}",
         "requestHeaders": {
          "content-type": "application/json",
          "user-agent": "Basecamp Webhooks (api-sandbox)",
          "x-basecamp-signature": "48f647cd96bb1d41546c6003d7a5ebf01aaf02e05f6bd3b54ed63f454bc8060d"
         },
         "responseHeaders": {},
         "responseMessage": "Could not connect to 127.0.0.1:9 (URLError -1004)."
        }
       ],
       "id": 1069500172,
       "payloadURL": "http://127.0.0.1:9/hook",
       "projectID": 2085958504,
       "secret": "layout-one-secret",
       "types": [
        "Todo"
       ],
       "updatedAt": "2026-11-28T18:59:53.827Z"
      }
     ]
    }
    """#
