"""Drives Hearth's Zaqar subset through python-zaqarclient, as os-collect-config's zaqar collector
and heat-config-notify call it: a Keystone v3 password login (keystoneauth1), the catalog's
`messaging` endpoint, then a pop (`pop`) or a post of a signal (`post`). Prints what it got as JSON,
for test/api/agent-transports.test.ts to judge.

Arguments: pop|post, auth_url, user_id, password, project_id, queue, and for post the body (JSON).
"""

import json
import sys

from keystoneauth1 import session
from keystoneauth1.identity import v3
from zaqarclient.queues.v2 import client as zaqar_client

mode, auth_url, user_id, password, project_id, queue_name = sys.argv[1:7]
ks = session.Session(
    auth=v3.Password(auth_url=auth_url, user_id=user_id, password=password, project_id=project_id)
)
endpoint = ks.get_endpoint(service_type="messaging", interface="public")
conf = {
    "auth_opts": {
        "backend": "keystone",
        "options": {"os_auth_token": ks.get_token(), "os_project_id": project_id},
    }
}
queue = zaqar_client.Client(endpoint, conf=conf, version=2).queue(queue_name)
if mode == "pop":
    print(json.dumps({"endpoint": endpoint, "body": next(queue.pop()).body}))
else:
    print(json.dumps({"endpoint": endpoint, "posted": queue.post({"body": json.loads(sys.argv[7]), "ttl": 600})}))
