"""code_fresh.py's checks on a second corpus of real code, none of it in any other benchmark.

Chosen on 2026-12-04, after the code stage's rules were written, as the unseen code it will be
checked on: pinned PyPI sdists (Python in sortedcontainers, tomlkit, rich; C in simplejson,
wrapt, pyrsistent, markupsafe, multidict, setproctitle, ciso8601, immutables,
msgpack; C++ in editdistance, pyclipper, murmurhash, python-rapidjson), npm packages (JS in ws,
koa, undici, chalk, nanostores; TS / TSX in react-stately, react-aria-components,
react-spectrum; Java in react-native-webview) and Debian 12 packages (Go, Rust, rapidjson's and
utf8proc's headers). Same draw, prompt kinds, columns and JSON as code_fresh.py.

    .venv/bin/python benchmarks/code_more.py --fetch  # once: pip download, npm pack, apt-get
    .venv/bin/python benchmarks/code_more.py [--per-lang 40] [--langs python,cpp]
"""

from __future__ import annotations

import re

import code_fresh as fresh  # (this folder is the script's path)

from ctxpress.tokens import user_cache_dir

fresh.RESULTS = fresh.ROOT / "benchmarks" / "results" / "code_more.json"
fresh.CACHE = user_cache_dir() / "bench" / "more"
fresh.P, fresh.N, fresh.R = fresh.CACHE / "pypi", fresh.CACHE / "npm", fresh.CACHE / "root"
fresh.PYPI = re.findall(
    r"\S+",
    "sortedcontainers-2.4.0 tomlkit-0.13.2 rich-13.9.4 simplejson-3.19.3 wrapt-1.16.0"
    " pyrsistent-0.20.0 MarkupSafe-2.1.5 multidict-6.0.5 setproctitle-1.3.3 ciso8601-2.3.1"
    " immutables-0.20 msgpack-1.0.8 editdistance-0.8.1"
    " pyclipper-1.3.0.post5 murmurhash-1.0.10 python-rapidjson-1.17",
)
fresh.NPM_PKGS = re.findall(
    r"\S+",
    "ws@8.18.0 koa@2.15.3 undici@6.20.0 chalk@5.3.0 nanostores@0.11.3 @react-stately/data@3.11.7"
    " react-aria-components@1.4.0 @react-spectrum/picker@3.15.3 @react-spectrum/menu@3.20.2"
    " react-native-webview@13.12.2",
)
fresh.DEBS = re.findall(
    r"\S+",
    "golang-github-fatih-color-dev=1.7.0-1 golang-github-spf13-viper-dev=1.10.1-1"
    " golang-github-jmoiron-sqlx-dev=1.3.5-1 golang-github-olekukonko-tablewriter-dev=0.0.5-2"
    " librust-once-cell-dev=1.17.0-1 librust-bitflags-dev=1.3.2-3 librust-serde-dev=1.0.152-2"
    " librust-futures-util-dev=0.3.21-1 librust-regex-dev=1.7.1-1"
    " rapidjson-dev=1.1.0+dfsg2-7.1 libutf8proc-dev=2.8.0-1",
)
# (the Python of the packages drawn first: the C packages' scripts would change the draw)
_PY = "sortedcontainers tomlkit rich simplejson wrapt pyrsistent editdistance pyclipper"
fresh.PY_GLOBS = [f"pypi/{p}*/**/*.py" for p in _PY.split()]
_C = "simplejson wrapt pyrsistent MarkupSafe multidict setproctitle ciso8601 immutables"
fresh.C_GLOBS = [f"pypi/{p}*/**/*.[ch]" for p in (*_C.split(), "msgpack")]
fresh.C_GLOBS += [f"{fresh.INCLUDE}/utf8proc.h"]
fresh.CPP_GLOBS = [f"{fresh.INCLUDE}/rapidjson/**/*.h"]
fresh.CPP_GLOBS += [f"pypi/{p}*/**/*.[ch]pp" for p in ("editdistance", "pyclipper", "murmurhash")]
fresh.CPP_GLOBS += ["pypi/python*rapidjson*/*.cpp"]

if __name__ == "__main__":
    fresh.main()
