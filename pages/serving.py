"""How the dashboard is served: each page's HTML says where the app's server is, so that a page opened by its address
(or reloaded) asks the server's health and host settings once, at the app's root, and never at the page's address.

Streamlit's frontend does not know the app's root from a page's address (``/run`` may be the page ``run`` of an app at
``/``, or an app served at ``/run``): it asks ``/run/_stcore/health`` and ``/run/_stcore/host-config`` first, which
the server answers 404, then ``/_stcore/...`` (as of Streamlit 1.67). It takes the root from
``window.__streamlit.BACKEND_BASE_URL`` when the page sets it before Streamlit's script runs, which Streamlit's own
``index.html`` never does; :class:`PageBase` sets it in every page's HTML as the server sends it, as the app's root
seen from the browser: the page's address less the page's own path, so that a proxy's prefix is kept.
"""

from __future__ import annotations

from streamlit import config

SCRIPT = ('<script>window.__streamlit = Object.assign({{}}, window.__streamlit, {{BACKEND_BASE_URL: new URL('
          'location.pathname.slice(0, location.pathname.length - {n}) || "/", location.origin).href}});</script>')


def page_path(path: str) -> str:
    """A page's own path within the app, as the browser's address writes it (percent-encoded): ``/run`` -> ``run``,
    ``/`` -> ``""``, less the app's ``server.baseUrlPath`` (``/hc/run`` -> ``run`` under ``hc``)."""
    base = (config.get_option("server.baseUrlPath") or "").strip("/")
    path = path.strip("/")
    if base and (path == base or path.startswith(base + "/")):
        path = path[len(base):]
    return path.strip("/")


def with_base(html: bytes, path: str) -> bytes:
    """A page's HTML with the app's root set before Streamlit's script (at the start of its head)."""
    return html.replace(b"<head>", b"<head>" + SCRIPT.format(n=len(page_path(path))).encode(), 1)


class PageBase:
    """ASGI middleware (of ``st.App``): a browser's page request (it asks for HTML) gets the page's HTML with the app's
    root set (:func:`with_base`); every other request and response passes as it is. The page's HTML is asked
    uncompressed, to be changed, and sent without its file's validators (it is not the file as it is)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        headers = dict(scope.get("headers", ())) if scope["type"] == "http" else {}
        if scope["type"] != "http" or scope["method"] != "GET" or not headers.get(b"accept", b"").startswith(
                b"text/html"):
            await self.app(scope, receive, send)
            return
        scope = {**scope, "headers": [(k, v) for k, v in scope["headers"] if k.lower() != b"accept-encoding"]}
        start: dict = {}
        body: list[bytes] = []

        async def changed(message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
                kind = dict(message.get("headers", ())).get(b"content-type", b"")
                if message["status"] == 200 and kind.startswith(b"text/html"):
                    return  # held until its body is whole
                start.clear()
            elif message["type"] == "http.response.body" and start:
                body.append(message.get("body", b""))
                if message.get("more_body"):
                    return
                html = with_base(b"".join(body), (scope.get("raw_path") or scope["path"].encode()).decode("latin-1"))
                kept = [(k, v) for k, v in start.get("headers", ())
                        if k.lower() not in (b"content-length", b"etag", b"last-modified")]
                await send({**start, "headers": [*kept, (b"content-length", str(len(html)).encode())]})
                await send({"type": "http.response.body", "body": html})
                return
            await send(message)

        await self.app(scope, receive, changed)


def only_listed_pages() -> None:
    """The app's pages are those its script lists (``st.navigation`` in app.py), from the server's first request on.
    Streamlit runs a server's sessions as a folder of pages (the "pages" folder beside the script: every module of it
    a page, and the page of the address run without app.py) until some session's script has called
    ``st.navigation``: the first visitor of a new server opening a page's address (a link, a reload) got that. Set
    once, in the server, before any session."""
    from streamlit.runtime.pages_manager import PagesManager

    PagesManager.uses_pages_directory = False
