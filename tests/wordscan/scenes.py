"""The OLED's scenes (device/scenes): every text they show comes from words/locale/*/LC_MESSAGES/scenes.po."""

MODULES = tuple(f"device/scenes/{name}.py" for name in (
    "__init__", "card", "flows", "idle", "inputs", "layout", "lists", "manager", "menus", "notes", "places", "runner",
    "said", "selftest", "table", "taps", "ui", "wizard"))

ALLOWED = {
    # the package's exports
    "SLEEP_AFTER", "TWO_CARDS", "WIRE_KEYS", "State", "Ui", "SceneManager", "two_cards",
    # the keys' wire names (the API's, the virtual device's), the transition table's triggers and scene kinds
    "K", "M", "HABEN", "SOLL", "LOS", "MENU", "OK", "C", "UP", "DOWN", "PUSH", "0123456789.KM", "KM", "KM.", "hold:",
    "hold:C", ": only C is held", "tap", "tick", "digit", "web change", "reader fault", "start", "push", "back",
    "unwind", "undeclared ", "idle", "card", "amount", "choose", "enter", "confirm", "result", "message", "pages",
    "join", "selftest", "sleep",
    # the transition table as a Mermaid diagram and text (`bankleser flows --mermaid`: a developer's diagram)
    "stateDiagram-v2", "    [*] --> idle", "    note right of idle", "        C: back exactly one scene, from any scene",
    "        hold:C from any scene: the new game's first list (choose)",
    "        tick: a timed game's end shows its pages; web change, reader fault: idle, card, message", "    end note",
    "        web change under a confirmation the rules would now book otherwise: result",
    "any --C--> the scene below (back exactly one)", "```mermaid\n",
    # layout.problems(): what the tests print when a screen does not fit
    "title ", "big ", " lines under ", "line ",
    # tones the buzzer plays
    "done", "refused", "new_game", "end",
    # the volume the reader's test stub reports (the daemon gives the service catalogue's words)
    "hoch",
    # commands' fields and the flows' own fields (the JSON the rules read); the ops are the rules' table's (``OPS``)
    "op", "player", "square", "from", "to", "open", "exact", "double_go", "of", "delta", "to_houses", "per_house",
    "per_hotel", "a", "b", "a_gives", "b_gives", "squares", "cash", "jail_cards", "jail",
    "lift", "creditor", "owed", "price", "dice", "no_auctions", "timed",
    "_auction", "_winner", "_what", "_b", "_a_items", "_a_cash", "_b_items", "_b_cash", "_lift", "edition", "mode", "minutes",
    "players", "quick", "standard", "seed", "house_rules", "speed_die", "replace", "deed",
    "free_parking_pot", "ask_undo", "ask_end", "volume", "learn", "ask_pin", "ask_new_game",
    # the shipped edition where there is no game; the probe players the rules check a timed game's minutes with
    "classic", "Probe1", "Probe2", "MONOPOLY ",
    # the rules' refusal codes (the OLED's big line is chosen by them)
    "insufficient_funds", "amount_out_of_range", "unknown_player", "unknown_square", "not_a_property", "not_owner",
    "already_owned", "no_monopoly", "group_mortgaged", "uneven_building", "max_buildings", "no_stock",
    "has_buildings", "mortgaged", "not_mortgaged", "player_bankrupt", "not_bankrupt", "game_over", "bad_command",
    "game_running", "debt_open", "no_shortage", "storage_error",
}
"""Constants with letters in the scenes that no person reads as a sentence of ours."""
