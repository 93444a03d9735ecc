// A model of polkitd's JavaScript rules (polkit(8), "AUTHORIZATION RULES"), stricter than polkitd:
// the rules files are run in order, the first rule that returns a result decides, and where none does
// the answer is "no" (polkitd would fall back to the action's defaults, which for a caller outside any
// session are "no" or "auth_admin": nobody is there to authenticate). Reads JSON on stdin:
// {"rules": [file, ...], "user": name, "groups": [...], "actions": [id, ...]}; prints {id: result}.
"use strict";
const fs = require("fs");
const vm = require("vm");

const query = JSON.parse(fs.readFileSync(0, "utf8"));
const rules = [];
const polkit = {
    Result: { NO: "no", YES: "yes", AUTH_SELF: "auth", AUTH_SELF_KEEP: "auth", AUTH_ADMIN: "auth",
              AUTH_ADMIN_KEEP: "auth", NOT_HANDLED: undefined },
    addRule: (rule) => rules.push(rule),
    addAdminRule: () => {},
    log: () => {},
    spawn: () => { throw new Error("polkit.spawn is not modelled"); },
};
for (const file of query.rules) {
    vm.runInNewContext(fs.readFileSync(file, "utf8"), { polkit }, { filename: file });
}
const subject = {
    user: query.user, groups: query.groups || [], pid: 4242, seat: "", session: "", local: false, active: false,
    isInGroup(group) { return this.groups.includes(group); },
    isInNetGroup() { return false; },
};
const answers = {};
for (const id of query.actions) {
    const action = { id, lookup: () => undefined };
    let result;
    for (const rule of rules) {
        result = rule(action, subject);
        if (result !== undefined) break;
    }
    answers[id] = result === undefined ? "no" : result;
}
process.stdout.write(JSON.stringify(answers));
