"""Every API answer the tests get is checked against the OpenAPI document the site serves."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from jsonschema import Draft202012Validator


@cache
def document() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(resources.files("web").joinpath("openapi.json").read_text())
    return doc


def _template(path: str) -> str:
    """The document's path that `path` (without its query) matches; AssertionError if none."""
    for template in document()["paths"]:
        pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"
        if re.match(pattern, path):
            return template
    raise AssertionError(f"{path} is not in the OpenAPI document")


def check(path: str, status: int, content_type: str, body: Any) -> None:
    """The answer to GET `path` has a status, type and body the document describes."""
    template = _template(urlsplit(path).path)
    responses = document()["paths"][template]["get"]["responses"]
    assert str(status) in responses, f"{path}: status {status} is not documented"
    content = responses[str(status)]["content"]
    assert content_type in content, f"{path}: {content_type} is not documented"
    schema = {**content[content_type]["schema"], "components": document()["components"]}
    errors = sorted(Draft202012Validator(schema).iter_errors(body), key=str)
    assert not errors, f"{path}: {errors[0].message} at {list(errors[0].absolute_path)}"


async def api_get(client: Any, path: str) -> tuple[int, Any]:
    """GET an API path; its status and JSON body, both checked against the document."""
    response = await client.get(path)
    body = await response.json()
    check(path, response.status, response.content_type, body)
    return response.status, body
