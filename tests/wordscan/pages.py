"""The pages: the status page, /admin, the virtual device, and the web's own refusals.

Their templates (base, status, admin, device, lesen.html) and webui/static/app.js are scanned by
tests/test_pages_language.py: the templates say ``{{ _("pages.…") }}``, the script ``t("pages.js.…")``."""

MODULES = ("webui/pages.py", "webui/admin.py", "webui/app.py", "webui/auth.py", "webui/errors.py", "webui/sim.py",
           "webui/server.py", "webui/live.py", "webui/language.py", "webui/devicestream.py", "webui/asgi.py")

ALLOWED = {
    # templates, blueprints, routes and the JSON fields the pages and the script read
    "status.html", "admin.html", "device.html", "fehler.html", "pages", "admin", "static", "/api/admin/language", "/api/cards",
    "/api/cards/<uid>/name", "/api/sim/freeze", "/api/sim/key", "/api/sim/tap", "/api/admin", "/api/commands",
    "/api/events", "/api/login", "/api/logout", "/api/session", "/api/state", "/sprache?lang=", "&zurueck=",
    "edition", "title", "currency", "house", "houses", "hotel", "hotels", "squares", "group", "groups",
    "group_order", "all_squares", "price", "names", "players", "deeds", "cards", "seq", "text", "version", "code",
    "message", "csrf", "epoch", "href", "label", "lang", "offer", "pinned", "script_words", "group_colours", "svg", "#fff",
    # the refusal codes programs read (the API's ``code``)
    "http", "internal", "bad_command", "bad_key", "bad_language", "bad_name", "bad_square", "bad_uid", "no_pin",
    "storage_error", "too_many_attempts", "wrong_pin", "too_large", "pin_set", "bad_pin", "pin_first",
    # what a session from the device's one-time code may reach, and the login's answer field
    "banker.api_pin", "banker.api_logout", "/api/pin", "set_pin",
    # the colour groups' and the house rules' codes (rules.GROUP_NAMES, the new_game's house_rules)
    "brown", "lightblue", "pink", "orange", "red", "yellow", "green", "darkblue", "station", "utility",
    "free_parking_pot", "double_go", "no_auctions",
    # the virtual device's key names in its API (their labels come from the catalogue)
    "HABEN", "SOLL", "MENU", "LOS", "hold:C",
    # HTTP, ASGI and the server's own words
    "GET", "HEAD", "OPTIONS", "Cache-Control", "ETag", "Strict", "Lax", "application/json", "image/svg+xml",
    "image/png", "text/event-stream", "no-store", "no-cache", "data: ", ": ping\n\n", "h11", "none",
    "warning", "latin-1", "surrogateescape", "body", "headers", "method", "more_body", "path", "status", "type",
    "lifespan", "lifespan.startup", "lifespan.startup.complete", "lifespan.shutdown", "lifespan.shutdown.complete",
    "http.disconnect", "http.response.body", "http.response.start", "jinja2.ext.i18n",
    # paths, headers and environment variables the pages read or compare (startswith, get)
    "/api/admin/doctor", "/api/admin/cards", "/api/", "X-CSRF-Token", "/sprache", "zurueck", "Accept-Language", "HTTP_ACCEPT_LANGUAGE", "Set-Cookie", "box",
    "/admin", "/admin/verdrahtung.svg", "/qr.svg", "/api/chart.svg", "/api/board", "If-None-Match",
    "/api/sim/display", "/api/sim/display.png", "/api/sim/events", "BANKLESER_ALLOW_FREEZE", "HTTP_COOKIE",
    # Python names (``__all__``, a TypeVar) and the cookie and mark names
    "Backend", "SESSION_HOURS", "create_app", "View", "bankleser_public", "bank_lang",
}
"""Constants with letters in these modules that no person reads as a sentence of ours."""
