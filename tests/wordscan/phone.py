"""The banker's phone (texts): the booking forms, the banker's login, the requests' parsers and the
answers the device's web adapter gives (the API's ``message`` fields)."""

MODULES = ("webui/booking.py", "device/daemon/booking.py", "webui/banker.py",
           "webui/parsers/body.py", "webui/parsers/cards.py",
           "webui/parsers/command.py", "webui/parsers/edition.py", "webui/parsers/login.py", "webui/parsers/sim.py",
           "device/daemon/web.py", "device/daemon/public.py")

ALLOWED = {
    # the routes
    "/api/banker/book", "/api/banker/preview", "/api/commands", "/api/login", "/api/logout", "booking",
    # a card UID's form (a regular expression)
    "[0-9a-f]{8}|[0-9a-f]{14}|[0-9a-f]{20}",
    # the commands' fields, the refusal codes (docs/commands.md); the ops are the rules' table's (``OPS``)
    "double_go", "a_gives", "a_gives.cash",
    "a_gives.jail_cards", "a_gives.squares", "b_gives", "b_gives.cash", "b_gives.jail_cards", "b_gives.squares",
    "amount", "cash", "creditor", "delta", "dice", "exact", "from", "lift", "owed", "per_hotel", "per_house",
    "player", "price", "square", "squares", "to_houses", "game_over", "storage_error", "unknown", "changed", "expect",
    "preview",
    # the JSON the API answers and the page reads
    "balances", "cards", "check", "clock", "code", "command", "confirm", "csrf", "data", "duplicate", "edition",
    "/api/banker/legal", "/api/banker/undo", "now",
        "fields", "flags", "flow", "forms", "hotel", "house_rule_titles", "kind", "label", "log", "menu", "message",
    "mode_title", "money", "multi", "note", "number", "optional", "options", "owner", "partner", "parts", "payee",
    "payer", "pin", "players", "problem", "ranking", "remaining", "select", "seq", "session_epoch", "state", "text",
    "transfers", "uid", "utility", "value", "version", "when", "who", "winners", "dropped",
}
"""Constants with letters in these modules that no person reads as a sentence of ours."""
