"""A family's edition: the file's checks, `bankleser edition`, the family's folder and /admin/ausgaben."""

MODULES = ("rules/editions/fileformat.py", "rules/editions/problems.py", "rules/editions/schema.py",
           "rules/editions/syntax.py", "rules/editions/values.py", "rules/editions/writing.py",
           "rules/editions/model.py", "rules/editions/shipped.py",
           "rules/editions/__init__.py", "device/daemon/editions_cli.py", "device/store/editions.py",
           "webui/editions.py", "rules/editions/reading.py", "device/store/edition_versions.py",
           "webui/parsers/edition.py")

ALLOWED = {
    # the letters a suggested key spells out ("München" → "muenchen") and its patterns
    "ä", "ö", "ü", "ß", "æ", "ø", "å", "NFKD", "[^a-z0-9]+",
    # the store's answers (a question asked first, a file kept), its folder of previous versions, the encodings
    # and patterns of the one reader, the ledger's refusal code of a key two files claim
    "question", "exists", "kept", "notes", "/api/admin/editions/delete", "/api/admin/editions/restore", "no_file",
    "not_saved", "was", "replace", "previous", "edition_twins",
    "%Y-%m-%d %H:%M", "%Y%m%d-%H%M%S", "*_*.toml", "utf-8-sig", "cp1252", "\\w*[^\\x00-\\x7f]\\w*",
    "^\\s*key\\s*=\\s*[\"\\']([^\"\\']*)[\"\\']", "source", "at",
    # tomllib's own messages, which syntax.TOML_ERRORS compares with to say them in the family's words
    "Unterminated string", "Expected '=' after a key in a key/value pair", "Expected ']' at the end of a table declaration",
    "Expected ']]' at the end of an array declaration", "Expected newline or end of document after a statement",
    "Cannot overwrite a value", "Cannot declare ", "Cannot redefine namespace ", "Duplicate inline table key ",
    "Invalid value", "Invalid date or datetime", "Invalid initial character for a key part", "Invalid statement",
    "Unclosed array", "Unclosed inline table", "Found invalid character ", "Illegal character ",
    "Illegal character '\\n'",
    # the file's TOML keys and tables, its values' type names and words of TOML itself
    "key", "title", "base", "board", "currency", "scale", "km_notation", "start_capital", "salary", "jail_fine",
    "max_entry", "auction_min_bid", "speed_die_bonus", "groups", "stations", "utilities", "stock", "houses", "hotels",
    "quick", "name", "deeds_each", "deal_paid", "houses_per_hotel", "ends_at_bankruptcy", "rules",
    "double_rent_with_mortgaged_group", "bankruptcy_mortgage_fee", "hotel_sale_returns_houses",
    "building_auction_at_house_price", "singular", "plural", "gender", "price", "rents", "house_price", "mortgage",
    "buildings", "names", "taxes", "deeds", "house", "hotel", "int", "text", "bool", "money", "classic", "mega",
    "ultimate-banking", "true", "false", "utf-8", "line", "deeds.", "names.", "buildings.", "groups.", "quick.",
    "stock.", "taxes.", "quick.name", "*.toml", "toml", "x", ".toml", "short", "short.", "words", "words.",
    "[words.", "[a-z]{2}",
    # the JSON fields of the editions' API, the page's form and its query, the web's codes and types
    "editions", "family", "warnings", "broken", "file", "problems", "path", "code", "message", "ok", "data",
    "http", "von", "application/toml", "Content-Disposition", "editions.html", "sim", "overview", "form", "rows",
    "square", "kind", "group", "colour", "group_name", "deed", "street", "tax", "station", "utility",
    "displayed",
    # the edition's own words and command-line words (argparse's dests and flags, the config's path)
    "edition", "verb", "list", "show", "check", "new", "--state-dir", "--config", "--language", "--from", "--key",
    "-o", "--output", "/etc/bankleser/config.toml", "language", "bankleser", "strerror", "bankleser edition new: ",
    ".toml.tmp", "_check_help", "standard", "timed",
    # the shipped editions' keys, the package's exported names
    "banking", "schalke", "sonic", "skylanders", "classic-uk", "classic-us", "EDITIONS", "KURZES_SPIEL",
    "SCHNELLSPIEL", "Checked", "Edition", "EditionError", "Gender", "Mode", "Problem", "QuickRules", "Word",
    "check_data", "edition_data", "edition_from_data", "journal_data", "read_edition", "to_toml",
    "BOARD_SQUARES", "COMMENTED", "DISPLAYED", "KEY", "MAX_DISPLAY_NAME", "MAX_SQUARE_NAME", "MAX_TITLE", "MAX_WORD",
    "key_problem", "line_numbers", "suggest_key", "toml_problem",
    # the schema's slots, the edition's attributes that hold a table's key under another name
    "later", "refuse", "houses_in_box", "hotels_in_box",
    # the file format's patterns, a problem's repr for a programmer, the K/M suffixes, keys' tails
    "[a-z0-9][a-z0-9-]{0,31}", "^\\s*\\[\\s*([^\\]]+?)\\s*\\]\\s*(#.*)?$", "^\\s*([A-Za-z0-9_\\-\\\"'. ]+?)\\s*=",
    "line (\\d+)", "warning", "Problem(", ", line=", "K", "M", ".rents", ".gender", ".price", ".mortgage",
    ".house_price", "[deeds.",
    # the web's routes, colours and headers
    "brown", "lightblue", "pink", "orange", "red", "yellow", "green", "darkblue", "#8b4513", "#9fd3f0", "#d6338c",
    "#f7941d", "#e03131", "#fcd116", "#2b8a3e", "#1c4fa0", "#222222", "#868e96", "/admin/ausgaben",
    "/admin/ausgaben/neu", "/admin/ausgaben/datei", "/api/admin/editions/check", "/api/admin/editions",
    "attachment; filename=\"", ".toml\"", ".html", "genders",
}
"""TOML keys, JSON fields, flags, patterns, the game modes' values and routes that programs read; never a sentence
of ours."""
