"""Drives hearth serve through python-heatclient's Python API, as Magnum and other tools call
it; prints what it saw as JSON, for test/api/wire-format-clients.test.ts to judge.

Arguments: the project's endpoint (noauth), the client ("http": Client('1', endpoint, token);
"session": a keystoneauth session with endpoint_override, as services use it), a stack name, and
a JSON template file (its parameter "v" is shown by its output "out").
"""

import json
import sys
import time

from heatclient import client as heat_client
from heatclient import exc

endpoint, kind, name, template_file = sys.argv[1:5]
with open(template_file) as f:
    TEMPLATE = json.load(f)

# What such callers send for what they leave out.
NONE_FIELDS = {"environment_files": None, "files": None, "environment": None, "timeout_mins": None}

if kind == "session":
    from keystoneauth1 import noauth, session

    hc = heat_client.Client(
        "1", session=session.Session(auth=noauth.NoAuth()), endpoint_override=endpoint
    )
else:
    hc = heat_client.Client("1", endpoint=endpoint, token="unused")

seen = {}


def attempt(key, call):
    """Records what call returns, or the error the client raised."""
    try:
        seen[key] = call()
    except exc.HTTPException as err:
        seen[key] = {"error": str(err)}


def raw(resp):
    return {
        "status": resp.status_code,
        "location": resp.headers.get("Location"),
        "content_type": resp.headers.get("Content-Type"),
        "body": resp.json(),
    }


def settle(stack_id):
    for _ in range(600):
        stack = hc.stacks.get(stack_id)
        if not stack.stack_status.endswith("_IN_PROGRESS"):
            return stack.to_dict()
        time.sleep(0.1)
    return {"stack_status": "still in progress"}


def output_value(stack):
    return {o["output_key"]: o["output_value"] for o in stack.get("outputs", [])}.get("out")


attempt(
    "create",
    lambda: hc.stacks.create(stack_name=name, template=TEMPLATE, parameters={"v": "two"}, **NONE_FIELDS),
)
# The same create as raw HTTP, for its headers: Location, followed as a client would.
attempt(
    "raw_create",
    lambda: raw(
        hc.http_client.post(
            "/stacks", data={"stack_name": name + "-raw", "template": TEMPLATE, **NONE_FIELDS}
        )
    ),
)
location = seen["raw_create"].get("location") if "error" not in seen["raw_create"] else None
if location:
    attempt("followed", lambda: raw(hc.http_client.get(location)))
attempt("list", lambda: raw(hc.http_client.get("/stacks")))

if "error" not in seen["create"]:
    stack_id = seen["create"]["stack"]["id"]
    seen["created"] = settle(stack_id)
    # By name: heatclient follows the lookup's 302 to the stack's URL.
    attempt("show", lambda: hc.stacks.get(name).to_dict())
    attempt(
        "update",
        lambda: hc.stacks.update(stack_id, template=TEMPLATE, parameters={"v": "three"}, **NONE_FIELDS),
    )
    seen["updated"] = settle(stack_id)
    seen["updated_output"] = output_value(seen["updated"])
    attempt(
        "patch",
        lambda: hc.stacks.update(
            stack_id,
            existing=True,
            template=None,
            parameters={"v": "four"},
            environment_files=None,
            files=None,
        ),
    )
    seen["patched"] = settle(stack_id)
    seen["patched_output"] = output_value(hc.stacks.get(stack_id).to_dict())
    attempt(
        "preview_update",
        lambda: hc.stacks.preview_update(
            stack_id, template=TEMPLATE, parameters={"v": "five"}, **NONE_FIELDS
        ),
    )

attempt(
    "preview",
    lambda: hc.stacks.preview(stack_name=name + "-preview", template=TEMPLATE, **NONE_FIELDS).to_dict(),
)
attempt(
    "validate",
    lambda: hc.stacks.validate(
        template=TEMPLATE, parameters={"secret": "GivenSecret5"}, environment_files=None, files=None
    ),
)

print(json.dumps(seen))
