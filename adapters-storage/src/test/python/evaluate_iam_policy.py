"""Evaluates an IAM policy with moto's policy engine, independently of the Java code under test.

Reads {"policy": "<json>", "requests": [{"action", "resource", "conditions"}]} on stdin and
prints one verdict per request: PERMITTED, DENIED or NEUTRAL (no statement applies: denied).
"""
import json
import sys

from moto.iam.access_control import IAMPolicy


def main():
    task = json.load(sys.stdin)
    policy = IAMPolicy(task["policy"])
    verdicts = [
        policy.is_action_permitted(
            request["action"],
            request["resource"],
            incoming_condition_values=request.get("conditions") or None,
        ).name
        for request in task["requests"]
    ]
    print(json.dumps(verdicts))


if __name__ == "__main__":
    main()
