"""The rules: every text they produce is a phrase, a key of words/locale/*/rules.po with its values.

rules/board.py is left out: its square names are the classic German board's own data (an edition's file names the
squares it prints, rules/editions/); its groups' names are the catalogue's (``rules.group.*``)."""

MODULES = ("rules/__init__.py", "rules/commands.py", "rules/errors.py", "rules/game.py",
           "rules/legal.py", "rules/ops.py", "rules/money.py", "rules/names.py", "rules/newgame.py", "rules/phrase.py",
           "rules/serialize.py", "rules/snapshot.py", "rules/state.py", "rules/titles.py", "rules/valuation.py",
           "rules/moves/__init__.py", "rules/moves/buildings.py", "rules/moves/context.py", "rules/moves/debt.py",
           "rules/moves/end.py", "rules/moves/money.py", "rules/moves/property.py", "rules/moves/trade.py",
           "rules/colours.py")

ALLOWED = {
    # the colours of the groups and the players (rules/colours.py): drawn, never read
    "#8b4513", "#9fd3f0", "#d6338c", "#f7941d", "#e03131", "#fcd116", "#2b8a3e", "#1c4fa0", "#222222", "#868e96",
    "#d62828", "#1d4ed8", "#15803d", "#b45309", "#7c3aed", "#0e7490", "#be185d", "#4d7c0f",
    "brown", "lightblue", "pink", "orange", "red", "yellow", "green", "darkblue", "station", "utility",
    # the refusal codes (rules.errors.Code): programs read them
    "already_owned", "amount_out_of_range", "bad_command", "debt_open", "game_running", "group_mortgaged",
    "has_buildings", "house_rule_off", "insufficient_funds", "max_buildings", "no_monopoly", "no_shortage", "no_stock",
    "not_a_property", "not_bankrupt", "not_last", "not_mortgaged", "not_owner", "player_bankrupt", "uneven_building",
    "unknown_player", "unknown_square",
    # the state's fields, the contract's and the checkpoint's JSON fields
    "bank", "bank_hotels", "bank_houses", "bankrupt_order", "debt", "edition_data", "finished", "format", "history",
    "hotels", "houses", "ids", "jail_cards", "minutes", "mortgaged", "numbered", "previous", "properties", "key",
    # a phrase's parts as data (rules.phrase.to_data), its value kinds and grammatical cases, and key suffixes
    "phrase", "place", "pieces", "many", "house", "nom", "acc", "dat", ".player", ".won", ".pot", "name",
    "free_parking_pot", "double_go", "no_auctions",
    "str | int | Cash | Place | Pieces | Noun | Many | Phrase", "noun",
    # the reader's own notation (its 5 characters), Unicode's categories and normal form
    "M", "99M+", "Cc", "Cf", "Cn", "Co", "Cs", "Zl", "Zp", "NFC",
    # a programmer's errors (ValueError), never shown to a player
    "amounts are never negative", "negative payment", "booked twice", "Move", "not a phrase: ", "not a phrase's value: ",
    # the package's names (__all__)
    "BadCommand", "CODES", "Change", "Command", "Ctx", "DEEDS", "Deed", "DeedState", "EDITIONS", "Edition", "Event",
    "GROUPS", "GROUP_NAMES", "Game", "GameState", "HANDLERS", "HOUSE_RULE_NAMES", "Kind", "MAX_NAME", "MODE_NAMES",
    "Mode", "Money", "OPS", "PlayerState", "ReaderAmount", "RuleError", "SQUARES", "Square", "Transfer",
    "check_distinct", "check_end", "clean_name", "deed_value", "format_money", "from_json", "interest", "level",
    "lift_cost", "mode_name", "name_key", "net_worth", "new_game_state", "parse", "parse_amount", "raisable",
    "reader_text", "shortage", "square_name", "to_json",
}
"""Constants with letters in these modules that programs read: codes, fields, names, the reader's notation."""
