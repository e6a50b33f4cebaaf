"""Prints the URL of the last page of a table listing, following the server's own page tokens.

Both servers hand out opaque nextPageToken values (Floe: the last name seen; the reference: an
offset), so the last page's token is found by walking the listing as a client would, in pages as
large as the server allows (--cap), up to the position of the last page, which is then checked:
exactly --page-size tables and no next page.
"""
import argparse
import json
import sys
import urllib.parse
import urllib.request


def get(url, token):
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=600) as response:
        return json.load(response)


def with_params(url, **params):
    parts = urllib.parse.urlsplit(url)
    query = dict(urllib.parse.parse_qsl(parts.query))
    query.update({k: str(v) for k, v in params.items() if v is not None})
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url", help="the listing URL (its pageSize is replaced)")
    parser.add_argument("--token", required=True)
    parser.add_argument("--page-size", type=int, required=True)
    parser.add_argument("--total", type=int, required=True, help="tables in the namespace")
    parser.add_argument("--cap", type=int, required=True, help="the largest page to ask for")
    args = parser.parse_args()

    target = args.total - args.page_size  # tables before the last page
    seen, token = 0, None
    while seen < target:
        size = min(target - seen, args.cap)
        page = get(with_params(args.url, pageSize=size, pageToken=token), args.token)
        seen += len(page["identifiers"])
        token = page.get("next-page-token")
        if not page["identifiers"] or token is None:
            sys.exit(f"listing ended after {seen} of {args.total} tables")
    if seen != target:
        sys.exit(f"the server returned {seen} tables where {target} were asked for")

    last_url = with_params(args.url, pageSize=args.page_size, pageToken=token)
    last = get(last_url, args.token)
    if len(last["identifiers"]) != args.page_size or last.get("next-page-token"):
        sys.exit(f"the last page has {len(last['identifiers'])} tables and next page "
                         f"{last.get('next-page-token')!r}")
    print(last_url)


if __name__ == "__main__":
    main()
