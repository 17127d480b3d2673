#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Layers, cycles and long functions of the workspace's crates (issue 40, points 5 and 4).

For every crate under crates/ this reads the .rs files its crate roots reach through `mod` declarations
(src/lib.rs, src/main.rs, src/bin/*.rs), with comments and string literals blanked out, and collects the arrows
between its modules:

- `use` declarations (`pub use` re-exports included) whose path is `crate::…`, `super::…`, `self::…` or starts
  with a child module of the current module;
- inline paths `crate::a::b`, `super::a`, `self::a` in code.

A path is resolved to the module that defines its item: a name a module imports or re-exports (`pub use x::Y`) is
followed to where it comes from, so `crate::Game` is an arrow to the module `game` when lib.rs says
`pub use game::Game`. Arrows are then looked at per level: the top-level modules of a crate, and the child modules
of every directory module (`tactics/src/tag/*`). A strongly connected component of more than one module at a level is
a cycle. The crate root's (or the directory module's) own file is not a node of its level.

Layer rule: a crate whose [dependencies] name none of axum, tower, hyper, tower-http, redis must not depend
(directly or through workspace path dependencies) on a crate that names one of them; crates/cli (the binary) and
crates/loadtest (the load generator) are exempt.

Long functions: in the crate directories of LONG_FN_CRATES, every `fn` with a body (free, method, async, const,
nested) whose text spans more than LONG_FN_LINES lines, from the line of `fn` to the line of its closing brace, is
reported as `long fn crates/…/file.rs:LINE name (N lines)`. Functions in `#[cfg(test)]` modules are not counted.

Every cycle, violation and long function is printed on one line (the arrows that close a cycle below it, with
file:line), then a summary. The exit status is 1 when a cycle, violation or long function is not in
tools/layers-baseline.txt, or when a baseline entry no longer is one (the baseline can only shrink);
`--write-baseline` rewrites the baseline from what is found.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

HTTP_DEPS = ("axum", "tower", "hyper", "tower-http", "redis")
LAYER_EXEMPT_DIRS = ("cli", "loadtest")
# The server's layers (crate directories): the domain may name none of HTTP_DEPS; the transports around it may not
# depend on each other (each reaches the domain only).
DOMAIN_DIRS = ("domain",)
TRANSPORT_DIRS = ("http", "broker")
BASELINE = Path("tools") / "layers-baseline.txt"
# Crate directories (under crates/) where no function may span more than LONG_FN_LINES lines (issue 40, point 4).
LONG_FN_CRATES = ("domain", "http", "broker", "server")
LONG_FN_LINES = 80

# ---------------------------------------------------------------------------------------------------------------
# Lexing: comments and literals blanked (newlines kept, so line numbers stay right).


def _is_ident(c: str) -> bool:
    return c.isalnum() or c == "_"


def strip_comments_and_strings(src: str) -> str:
    """The source with comments, string/char literals replaced by spaces; newlines and lengths are kept."""
    out = list(src)
    n = len(src)
    i = 0

    def blank(a: int, b: int) -> None:
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = src[i]
        nxt = src[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":
            j = src.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
            continue
        if c == "/" and nxt == "*":
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
            continue
        # Raw strings: r"…", r#"…"#, br"…", cr#"…"# (the prefix starts an identifier).
        if c in "rbc" and (i == 0 or not _is_ident(src[i - 1])):
            m = re.compile(r'(?:br|cr|r)(#*)"').match(src, i)
            if m:
                close = '"' + m.group(1)
                j = src.find(close, m.end())
                j = n if j < 0 else j + len(close)
                blank(i, j)
                i = j
                continue
            if c in "bc" and nxt == '"':
                i += 1
                c = '"'
        if c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            blank(i, j + 1)
            i = j + 1
            continue
        if c == "'":
            # A char literal ('a', '\n', '\u{1F600}') or a lifetime/label ('a, 'static): only the former is blanked.
            if nxt == "\\":
                j = i + 2
                while j < n and src[j] != "'":
                    j += 2 if src[j] == "\\" else 1
                blank(i, j + 1)
                i = j + 1
                continue
            if i + 2 < n and src[i + 2] == "'":
                blank(i, i + 3)
                i += 3
                continue
        i += 1
    return "".join(out)


# ---------------------------------------------------------------------------------------------------------------
# Use trees.

_TOKEN = re.compile(r"\s*(::|[{},*]|(?:r#)?[A-Za-z_][A-Za-z0-9_]*)")


def parse_use_tree(text: str) -> list[tuple[list[str], str | None]]:
    """The paths of one `use` tree (without `use` and `;`): each as its segments and the name it binds (None for a
    glob). A leading `::` is kept as an empty first segment."""
    toks: list[str] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            if text[pos:].strip() == "":
                break
            raise ValueError(f"cannot read use tree near {text[pos:pos + 30]!r}")
        toks.append(m.group(1).removeprefix("r#"))
        pos = m.end()
    result: list[tuple[list[str], str | None]] = []
    k = 0

    def tree(prefix: list[str]) -> None:
        nonlocal k
        path = list(prefix)
        if k < len(toks) and toks[k] == "::":
            if not path:
                path.append("")
            k += 1
        while k < len(toks):
            t = toks[k]
            if t == "{":
                k += 1
                while k < len(toks) and toks[k] != "}":
                    if toks[k] == ",":
                        k += 1
                        continue
                    tree(path)
                k += 1
                return
            if t == "*":
                k += 1
                result.append((path, None))
                return
            path = path + [t]
            k += 1
            if k < len(toks) and toks[k] == "::":
                k += 1
                continue
            alias = path[-1]
            if k + 1 < len(toks) and toks[k] == "as":
                alias = toks[k + 1]
                k += 2
            if path[-1] == "self":
                path = path[:-1]
                if alias == "self":
                    alias = path[-1] if path else None
            result.append((path, alias))
            return

    while k < len(toks):
        if toks[k] == ",":
            k += 1
            continue
        tree([])
    return result


# ---------------------------------------------------------------------------------------------------------------
# A crate's modules and arrows.


@dataclass
class Module:
    path: tuple[str, ...]
    file: Path  # the file its code is in
    test: bool = False  # under a `#[cfg(test)] mod`
    children: dict[str, "Module"] = field(default_factory=dict)
    imports: dict[str, list[str]] = field(default_factory=dict)  # name -> absolute path (crate-internal)


@dataclass
class Arrow:
    src: tuple[str, ...]  # module the reference is in
    dst: tuple[str, ...]  # module that defines what it names
    file: Path
    line: int
    test: bool = False  # written in test code (`#[cfg(test)] mod …`)


@dataclass
class Ref:
    module: tuple[str, ...]
    segments: list[str]
    file: Path
    line: int
    is_use: bool
    alias: str | None = None
    test: bool = False


_MOD_DECL = re.compile(r"\bmod\s+(?:r#)?([A-Za-z_][A-Za-z0-9_]*)\s*([;{])")
_USE = re.compile(r"\buse\s+")
_VIS_IN = re.compile(r"\bpub\s*\(\s*in\s+[^)]*\)")
_CFG_TEST = re.compile(r"#\[cfg\(test\)\]\s*$")
_INLINE = re.compile(r"(?<![\w$])(crate|super|self)((?:\s*::\s*(?:r#)?[A-Za-z_][A-Za-z0-9_]*)+)")


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _is_test(code: str, mod_pos: int) -> bool:
    """Whether the `mod` at `mod_pos` has `#[cfg(test)]` (possibly with `pub` between)."""
    head = re.sub(r"\bpub(\s*\([^)]*\))?\s*$", "", code[max(0, mod_pos - 200):mod_pos])
    return bool(_CFG_TEST.search(head))


def _matching_brace(text: str, open_pos: int) -> int:
    depth = 0
    for j in range(open_pos, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(text)


class Crate:
    def __init__(self, name: str, root_file: Path, label: str, repo: Path):
        self.name = name
        self.label = label
        self.repo = repo
        self.root = Module((), root_file)
        self.refs: list[Ref] = []
        self._load(self.root, root_file, root_file.parent)

    # Reading files ------------------------------------------------------------------------------------------------

    def _load(self, module: Module, file: Path, child_dir: Path) -> None:
        src = file.read_text(encoding="utf-8")
        code = _VIS_IN.sub(lambda m: " " * len(m.group(0)), strip_comments_and_strings(src))
        self._scan(module, file, code, 0, len(code), child_dir)

    def _scan(self, module: Module, file: Path, code: str, start: int, end: int, child_dir: Path) -> None:
        """Module declarations, uses and inline paths of `module`, whose code is code[start:end]."""
        inner: list[tuple[int, int]] = []
        pos = start
        while True:
            m = _MOD_DECL.search(code, pos, end)
            if not m:
                break
            name = m.group(1)
            if m.group(2) == ";":
                candidates = [child_dir / f"{name}.rs", child_dir / name / "mod.rs"]
                found = next((p for p in candidates if p.is_file()), None)
                pos = m.end()
                if found is None:
                    continue
                child = Module(module.path + (name,), found, module.test or _is_test(code, m.start()))
                module.children[name] = child
                sub_dir = found.parent if found.name == "mod.rs" else found.with_suffix("")
                self._load(child, found, sub_dir)
            else:
                close = _matching_brace(code, m.end() - 1)
                child = Module(module.path + (name,), file, module.test or _is_test(code, m.start()))
                module.children[name] = child
                self._scan(child, file, code, m.end(), close, child_dir / name)
                inner.append((m.start(), close + 1))
                pos = close + 1
        # This module's own text: without its inline child modules.
        own = list(code[start:end])
        for a, b in inner:
            for k in range(a - start, b - start):
                if own[k] != "\n":
                    own[k] = " "
        text = "".join(own)
        base_line = _line_of(code, start) - 1
        # use declarations (then blanked, so their paths are not read again as inline paths)
        chars = list(text)
        for m in _USE.finditer(text):
            if m.start() > 0 and (_is_ident(text[m.start() - 1]) or text[m.start() - 1] == "#"):
                continue
            semi = text.find(";", m.end())
            if semi < 0:
                continue
            line = base_line + _line_of(text, m.start())
            if "$" in text[m.end():semi]:
                continue  # a `use $crate::…` in a macro: expanded elsewhere
            try:
                paths = parse_use_tree(text[m.end():semi])
            except ValueError as e:
                raise SystemExit(f"{file}:{line}: {e}") from None
            for segs, alias in paths:
                self.refs.append(Ref(module.path, segs, file, line, True, alias, module.test))
            for k in range(m.start(), semi + 1):
                if chars[k] != "\n":
                    chars[k] = " "
        text = "".join(chars)
        for m in _INLINE.finditer(text):
            segs = [m.group(1)] + [s.strip().removeprefix("r#") for s in m.group(2).split("::") if s.strip()]
            line = base_line + _line_of(text, m.start())
            self.refs.append(Ref(module.path, segs, file, line, False, None, module.test))

    # Resolution ---------------------------------------------------------------------------------------------------

    def module(self, path: tuple[str, ...]) -> Module | None:
        m = self.root
        for seg in path:
            m = m.children.get(seg)
            if m is None:
                return None
        return m

    def absolute(self, at: tuple[str, ...], segs: list[str]) -> list[str] | None:
        """`segs` written in module `at`, as a path from the crate root; None when it leaves the crate."""
        if not segs or segs[0] == "":
            return None
        if segs[0] == "crate":
            return segs[1:]
        if segs[0] == "self":
            return list(at) + segs[1:]
        if segs[0] == "super":
            k = 0
            while k < len(segs) and segs[k] == "super":
                k += 1
            if k > len(at):
                return None
            return list(at[: len(at) - k]) + segs[k:]
        here = self.module(at)
        if here is not None and segs[0] in here.children:
            return list(at) + segs
        return None

    def resolve_imports(self) -> None:
        for r in self.refs:
            if r.is_use and r.alias and r.alias != "_":
                target = self.absolute(r.module, r.segments)
                mod = self.module(r.module)
                if target is not None and mod is not None:
                    mod.imports.setdefault(r.alias, target)

    def defining_module(self, path: list[str], depth: int = 0) -> tuple[str, ...]:
        """The deepest module of `path`, following imports and re-exports (`pub use`) of names."""
        mod = self.root
        for i, seg in enumerate(path):
            if seg in mod.children:
                mod = mod.children[seg]
                continue
            target = mod.imports.get(seg)
            if target is not None and depth < 16 and target != list(mod.path) + [seg]:
                return self.defining_module(target + path[i + 1:], depth + 1)
            break
        return mod.path

    def arrows(self) -> list[Arrow]:
        self.resolve_imports()
        out = []
        for r in self.refs:
            target = self.absolute(r.module, r.segments)
            if target is None:
                continue
            dst = self.defining_module(target)
            if dst != r.module:
                out.append(Arrow(r.module, dst, r.file, r.line, r.test))
        return out

    def levels(self) -> list[Module]:
        """Modules whose children form a level: the root and every module with at least two children."""
        out, stack = [], [self.root]
        while stack:
            m = stack.pop()
            if len(m.children) >= 2:
                out.append(m)
            stack.extend(m.children.values())
        return out


# ---------------------------------------------------------------------------------------------------------------
# Graphs.


def sccs(nodes: list[str], edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            pushed = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    pushed = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if pushed:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def closing_arrows(members: list[str], weight: dict[tuple[str, str], int]) -> list[tuple[str, str]]:
    """Arrows inside a cycle that point back against an order of its members chosen so that the arrows pointing
    back are few and little used (greedy feedback arc set, Eades–Lin–Smyth, weighted by the number of uses)."""
    left = set(members)
    head: list[str] = []
    tail: list[str] = []

    def w_in(v: str) -> int:
        return sum(c for (a, b), c in weight.items() if b == v and a in left and a != v)

    def w_out(v: str) -> int:
        return sum(c for (a, b), c in weight.items() if a == v and b in left and b != v)

    while left:
        changed = True
        while changed:
            changed = False
            for v in sorted(left):
                if w_out(v) == 0:
                    tail.insert(0, v)
                    left.discard(v)
                    changed = True
                elif w_in(v) == 0:
                    head.append(v)
                    left.discard(v)
                    changed = True
        if left:
            v = max(sorted(left), key=lambda x: w_out(x) - w_in(x))
            head.append(v)
            left.discard(v)
    order = {v: i for i, v in enumerate(head + tail)}
    return sorted((a, b) for (a, b) in weight if a in order and b in order and order[a] > order[b])


@dataclass
class Cycle:
    label: str
    members: list[str]
    closing: list[tuple[str, str, list[str]]]  # from, to, sites
    arrows: int
    inside: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # every arrow inside, with its sites

    @property
    def key(self) -> str:
        return f"{self.label}: {' '.join(self.members)}"


def crate_cycles(crate: Crate) -> tuple[list[Cycle], int]:
    """The cycles of every level of the crate, and the number of arrows between top-level modules."""
    arrows = crate.arrows()
    cycles = []
    top_arrows = 0
    for level in crate.levels():
        depth = len(level.path)
        sites: dict[tuple[str, str], list[str]] = {}
        for a in arrows:
            if len(a.src) <= depth or len(a.dst) <= depth:
                continue
            if a.src[:depth] != level.path or a.dst[:depth] != level.path:
                continue
            s, d = a.src[depth], a.dst[depth]
            if s == d:
                continue
            site = f"{a.file.relative_to(crate.repo)}:{a.line}" + (" (test)" if a.test else "")
            lst = sites.setdefault((s, d), [])
            if site not in lst:
                lst.append(site)
        if depth == 0:
            top_arrows = len(sites)
        edges: dict[str, set[str]] = {}
        for s, d in sites:
            edges.setdefault(s, set()).add(d)
        label = crate.label + "".join("::" + p for p in level.path)
        for comp in sccs(sorted(level.children), edges):
            if len(comp) < 2:
                continue
            inside = {k: len(v) for k, v in sites.items() if k[0] in comp and k[1] in comp}
            back = closing_arrows(comp, inside)
            every = {k: sites[k] for k in sorted(inside)}
            cycles.append(Cycle(label, comp, [(a, b, sites[(a, b)]) for a, b in back], len(inside), every))
    return cycles, top_arrows


# ---------------------------------------------------------------------------------------------------------------
# Long functions.

_FN = re.compile(r"(?<![\w$])fn\s+(?:r#)?([A-Za-z_][A-Za-z0-9_]*)")


@dataclass
class LongFn:
    file: str  # relative to the repository
    line: int
    name: str
    lines: int

    @property
    def key(self) -> str:
        return f"long-fn: {self.file} {self.name}"


def test_module_spans(code: str) -> list[tuple[int, int]]:
    """The spans of the inline `#[cfg(test)] mod x { … }` in lexed code."""
    spans = []
    for m in _MOD_DECL.finditer(code):
        if m.group(2) == "{" and _is_test(code, m.start()):
            spans.append((m.start(), _matching_brace(code, m.end() - 1)))
    return spans


def function_spans(src: str) -> list[tuple[int, str, int]]:
    """(line of `fn`, name, lines from `fn` to its closing brace) of every function with a body in `src`, nested ones
    included, those in inline `#[cfg(test)]` modules left out."""
    code = strip_comments_and_strings(src)
    tests = test_module_spans(code)
    starts = [0]
    for k, c in enumerate(code):
        if c == "\n":
            starts.append(k + 1)

    def line(pos: int) -> int:
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= pos:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    out = []
    for m in _FN.finditer(code):
        if any(a <= m.start() <= b for a, b in tests):
            continue
        # The body is the first `{` outside parentheses and brackets; a `;` first means no body (a trait's
        # declaration).
        depth, j, body = 0, m.end(), None
        while j < len(code):
            c = code[j]
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            elif depth == 0 and c == ";":
                break
            elif depth == 0 and c == "{":
                body = j
                break
            j += 1
        if body is None:
            continue
        first = line(m.start())
        out.append((first, m.group(1), line(_matching_brace(code, body)) - first + 1))
    return out


def crate_files(package: "Package", repo: Path) -> list[Path]:
    """The files of a package's modules outside `#[cfg(test)]` modules, as its crate roots reach them."""
    files: dict[Path, None] = {}
    for label, root in package.roots:
        stack = [Crate(package.name, root, label, repo).root]
        while stack:
            m = stack.pop()
            if not m.test:
                files.setdefault(m.file, None)
            stack.extend(m.children.values())
    return sorted(files)


def long_functions(repo: Path, packages: list["Package"], limit: int = LONG_FN_LINES) -> list[LongFn]:
    out = []
    for p in packages:
        if p.dir.name not in LONG_FN_CRATES:
            continue
        for f in crate_files(p, repo):
            rel = f.relative_to(repo).as_posix()
            for first, name, n in function_spans(f.read_text(encoding="utf-8")):
                if n > limit:
                    out.append(LongFn(rel, first, name, n))
    return out


# ---------------------------------------------------------------------------------------------------------------
# The workspace.


@dataclass
class Package:
    name: str
    dir: Path
    deps: set[str]  # names of the packages in [dependencies]
    roots: list[tuple[str, Path]]


def read_package(crate_dir: Path) -> Package | None:
    manifest = crate_dir / "Cargo.toml"
    if not manifest.is_file():
        return None
    with manifest.open("rb") as f:
        doc = tomllib.load(f)
    pkg = doc.get("package", {})
    name = pkg.get("name", crate_dir.name)
    tables = [doc.get("dependencies", {})]
    tables += [t.get("dependencies", {}) for t in doc.get("target", {}).values()]
    deps = set()
    for table in tables:
        for key, spec in table.items():
            deps.add(spec.get("package", key) if isinstance(spec, dict) else key)
    src = crate_dir / "src"
    roots = []
    for f, label in ((src / "lib.rs", name), (src / "main.rs", f"{name}[bin]")):
        if f.is_file():
            roots.append((label, f))
    bins = src / "bin"
    if bins.is_dir():
        for f in sorted(bins.glob("*.rs")):
            roots.append((f"{name}[bin {f.stem}]", f))
        for f in sorted(bins.glob("*/main.rs")):
            roots.append((f"{name}[bin {f.parent.name}]", f))
    return Package(name, crate_dir, deps, roots)


def layer_violations(packages: list[Package]) -> list[tuple[str, str, list[str]]]:
    """(crate, crate with HTTP/Redis it reaches, the chain of dependencies)."""
    by_name = {p.name: p for p in packages}

    def http_of(p: Package) -> list[str]:
        return sorted(d for d in p.deps if d in HTTP_DEPS)

    out = []
    for p in packages:
        if p.dir.name in DOMAIN_DIRS:
            out.extend((p.name, d, [p.name, d]) for d in http_of(p))
        if p.dir.name in TRANSPORT_DIRS:
            out.extend(transport_to_transport(p, by_name))
        if p.dir.name in LAYER_EXEMPT_DIRS or http_of(p):
            continue
        # breadth first over workspace dependencies, keeping one shortest chain per reached crate
        chain = {p.name: [p.name]}
        queue = [p.name]
        while queue:
            cur = queue.pop(0)
            for d in sorted(by_name[cur].deps):
                if d in by_name and d not in chain:
                    chain[d] = chain[cur] + [d]
                    queue.append(d)
        for reached in sorted(chain):
            if reached != p.name and http_of(by_name[reached]):
                out.append((p.name, reached, chain[reached]))
    return out


def transport_to_transport(p: Package, by_name: dict[str, Package]) -> list[tuple[str, str, list[str]]]:
    """A transport crate that reaches another transport crate through workspace dependencies."""
    chain = {p.name: [p.name]}
    queue = [p.name]
    while queue:
        cur = queue.pop(0)
        for d in sorted(by_name[cur].deps):
            if d in by_name and d not in chain:
                chain[d] = chain[cur] + [d]
                queue.append(d)
    return [
        (p.name, r, chain[r]) for r in sorted(chain) if r != p.name and by_name[r].dir.name in TRANSPORT_DIRS
    ]


def workspace_packages(repo: Path) -> list[Package]:
    return [p for d in sorted((repo / "crates").iterdir()) if d.is_dir() for p in [read_package(d)] if p]


def analyse(repo: Path) -> tuple[list[Cycle], list[tuple[str, str, list[str]]], dict[str, tuple[int, int]]]:
    packages = workspace_packages(repo)
    cycles: list[Cycle] = []
    stats: dict[str, tuple[int, int]] = {}
    for p in packages:
        for label, root in p.roots:
            crate = Crate(p.name, root, label, repo)
            found, top = crate_cycles(crate)
            cycles += found
            stats[label] = (len(found), top)
    return cycles, layer_violations(packages), stats


def violation_key(v: tuple[str, str, list[str]]) -> str:
    return f"layer: {v[0]} -> {v[1]}"


def read_baseline(path: Path) -> list[str]:
    if not path.is_file():
        return []
    lines = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        s = raw.strip()
        if s and not s.startswith("#"):
            lines.append(" ".join(s.split()))
    return lines


BASELINE_HEADER = """\
# Known module cycles, layer violations and long functions (tools/layers.py). One line per cycle: `crate[::module]:
# its members, sorted`; per violation: `layer: crate -> crate with HTTP/Redis`; per long function: `long-fn:
# crates/…/file.rs name`. The list can only shrink: remove a line when its cycle is gone or its function is short
# (the checker says so), and never add one by hand.
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--baseline", type=Path, help="default: tools/layers-baseline.txt of the repository")
    ap.add_argument("--write-baseline", action="store_true", help="rewrite the baseline with what is found")
    ap.add_argument("--stats", action="store_true", help="also print cycles and top-level arrows per crate")
    ap.add_argument("--all-arrows", action="store_true", help="print every arrow inside a cycle, not only those closing it")
    args = ap.parse_args(argv)
    repo = args.repo.resolve()
    baseline_path = args.baseline or repo / BASELINE

    cycles, violations, stats = analyse(repo)
    long_fns = long_functions(repo, workspace_packages(repo))
    for c in cycles:
        print(f"cycle {c.key} ({c.arrows} arrows inside; {len(c.closing)} close it)")
        shown = [(a, b, v) for (a, b), v in c.inside.items()] if args.all_arrows else c.closing
        for a, b, sites in shown:
            more = f" (+{len(sites) - 3} more)" if len(sites) > 3 else ""
            print(f"    {a} -> {b}: {', '.join(sites[:3])}{more}")
    for v in violations:
        print(f"{violation_key(v)}: {v[0]} has no {'/'.join(HTTP_DEPS)} but depends on {v[1]} ({' -> '.join(v[2])})")
    if args.stats:
        for label, (n, top) in sorted(stats.items()):
            print(f"    {label}: {n} cycles, {top} arrows between top-level modules")
    for f in long_fns:
        print(f"long fn {f.file}:{f.line} {f.name} ({f.lines} lines)")
    print(f"{len(cycles)} cycles, {len(violations)} layer violations, {len(long_fns)} long functions"
          f" (over {LONG_FN_LINES} lines in crates/{{{','.join(LONG_FN_CRATES)}}})")

    found = [c.key for c in cycles] + [violation_key(v) for v in violations]
    found += sorted({f.key for f in long_fns})
    if args.write_baseline:
        baseline_path.write_text(BASELINE_HEADER + "".join(k + "\n" for k in sorted(found)), encoding="utf-8")
        print(f"wrote {baseline_path} ({len(found)} entries)")
        return 0
    known = read_baseline(baseline_path)
    failed = False
    for k in found:
        if k not in known:
            failed = True
            if k.startswith("long-fn: "):
                print(f"NEW: '{k}' is not in {BASELINE}: split the function into steps of at most"
                      f" {LONG_FN_LINES} lines")
            else:
                print(f"NEW: '{k}' is not in {BASELINE}: break it (if a known cycle only shrank or split, run"
                      " tools/layers.py --write-baseline)")
    for k in known:
        if k not in found:
            failed = True
            what = "long" if k.startswith("long-fn: ") else "a cycle"
            print(f"baseline entry '{k}' no longer {what}: delete it (or run tools/layers.py --write-baseline)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
