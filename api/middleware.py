"""The API's edge: CORS for reading from any origin, and the rate limits.

Only below ``/api/``: the rest of the site keeps its same-origin rules. Placed before the
session and user middleware, so a refused request costs a cache round trip and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

from api.limits import api_request_admit

PREFIX = "/api/"
READ_METHODS = ("GET", "HEAD")
_PLAIN_ERRORS = {404: "Not found.", 405: "Method not allowed: the API only reads."}


def _cors(response: HttpResponse) -> HttpResponse:
    # No credentials: a page elsewhere reads only what anyone may read, or what the token
    # it holds opens; the site's cookies are never honoured by the API anyway.
    response["Access-Control-Allow-Origin"] = "*"
    response["Access-Control-Expose-Headers"] = "Retry-After, Content-Disposition, Link"
    return response


def _is_json(response: HttpResponse) -> bool:
    return response.get("Content-Type", "").startswith("application/json")


class ApiMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path_info.startswith(PREFIX):
            return self.get_response(request)
        if request.method == "OPTIONS":
            # A preflight: reading is all that is offered, with a token if one likes.
            preflight = _cors(HttpResponse(status=204))
            preflight["Access-Control-Allow-Methods"] = "GET, HEAD, OPTIONS"
            preflight["Access-Control-Allow-Headers"] = "Authorization"
            preflight["Access-Control-Max-Age"] = "86400"
            return preflight
        verdict = api_request_admit(request)
        if not verdict.allowed:
            refused = JsonResponse(
                {"detail": "Too many requests: wait for Retry-After seconds."}, status=429
            )
            refused["Retry-After"] = str(verdict.retry_after)
            return _cors(refused)
        response = self.get_response(request)
        if response.status_code in _PLAIN_ERRORS and not _is_json(response):
            # No such path (or Django's own Http404), a method Ninja refuses in plain text:
            # the API answers JSON, as its other errors do, never the site's HTML page.
            answer = JsonResponse(
                {"detail": _PLAIN_ERRORS[response.status_code]}, status=response.status_code
            )
            if response.has_header("Allow"):
                answer["Allow"] = response["Allow"]
            response = answer
        if request.method in READ_METHODS:
            _cors(response)
        return response
