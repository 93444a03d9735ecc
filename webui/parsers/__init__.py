"""One parser per kind of request: each reads the body, checks every field and returns plain typed values,
or raises a :mod:`webui.errors` type. The views only call the parser and the backend."""
