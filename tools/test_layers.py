#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tests of tools/layers.py on tiny fake workspaces in a temporary directory: python3 tools/test_layers.py"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import layers  # noqa: E402


def cargo_toml(name: str, deps: dict[str, str]) -> str:
    lines = [f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2024"\n\n[dependencies]']
    lines += [f"{k} = {v}" for k, v in deps.items()]
    return "\n".join(lines) + "\n"


class Workspace:
    def __init__(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.root = Path(self._tmp.name)
        (self.root / "crates").mkdir()
        (self.root / "tools").mkdir()

    def crate(self, dirname: str, files: dict[str, str], name: str | None = None, deps: dict[str, str] | None = None):
        d = self.root / "crates" / dirname
        (d / "src").mkdir(parents=True)
        (d / "Cargo.toml").write_text(cargo_toml(name or f"x-{dirname}", deps or {}), encoding="utf-8")
        for rel, text in files.items():
            p = d / "src" / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(textwrap.dedent(text), encoding="utf-8")

    def run(self, *args: str) -> tuple[int, str]:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = layers.main(["--repo", str(self.root), *args])
        return code, out.getvalue()

    def cycles(self) -> list[str]:
        return [c.key for c in layers.analyse(self.root)[0]]

    def violations(self) -> list[str]:
        return [layers.violation_key(v) for v in layers.analyse(self.root)[1]]

    def close(self) -> None:
        self._tmp.cleanup()


class Fixture(unittest.TestCase):
    def setUp(self) -> None:
        self.ws = Workspace()

    def tearDown(self) -> None:
        self.ws.close()


class UseTrees(unittest.TestCase):
    def test_nested_groups_self_aliases_and_globs(self):
        got = layers.parse_use_tree("crate::a::{self, b::{C, D as E}, f::*}, super::g")
        self.assertEqual(
            got,
            [
                (["crate", "a"], "a"),
                (["crate", "a", "b", "C"], "C"),
                (["crate", "a", "b", "D"], "E"),
                (["crate", "a", "f"], None),
                (["super", "g"], "g"),
            ],
        )

    def test_leading_colons_leave_the_crate(self):
        self.assertEqual(layers.parse_use_tree("::std::fmt"), [(["", "std", "fmt"], "fmt")])


class Lexing(unittest.TestCase):
    def test_comments_strings_and_chars_are_blanked_lifetimes_kept(self):
        src = 'a // crate::x\n/* crate::y /* nested */ still */ b "crate::z \\" q" r#"crate::w"# \'"\' \'a c'
        out = layers.strip_comments_and_strings(src)
        self.assertEqual(len(out), len(src))
        self.assertEqual(out.count("\n"), 1)
        self.assertNotIn("crate", out)
        self.assertIn("'a c", out)
        self.assertTrue(out.startswith("a ") and " b " in out)


class Cycles(Fixture):
    def test_a_cycle_of_two_modules_is_found_with_the_arrows_closing_it(self):
        self.ws.crate(
            "one",
            {
                "lib.rs": "mod a;\nmod b;\nmod c;\n",
                "a.rs": "use crate::b::B;\npub struct A;\npub fn f() -> B { B }\n",
                "b.rs": "pub struct B;\nfn g() { let _ = crate::a::A; }\n",
                "c.rs": "use crate::a::A;\n",
            },
        )
        self.assertEqual(self.ws.cycles(), ["x-one: a b"])
        code, out = self.ws.run()
        self.assertEqual(code, 1)
        self.assertIn("cycle x-one: a b", out)
        self.assertRegex(out, r"-> [ab]: crates/one/src/[ab]\.rs:[12]")
        self.assertIn("1 cycles, 0 layer violations", out)

    def test_no_cycle_when_arrows_go_one_way(self):
        self.ws.crate(
            "one",
            {
                "lib.rs": "mod a;\nmod b;\npub use a::A;\n",
                "a.rs": "use crate::b::B;\npub struct A(B);\n",
                "b.rs": "pub struct B;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use crate::b::B;\n}\n",
            },
        )
        self.assertEqual(self.ws.cycles(), [])
        self.assertEqual(self.ws.run()[0], 0)

    def test_a_re_export_is_an_arrow_and_names_re_exported_by_the_root_resolve_to_their_module(self):
        self.ws.crate(
            "one",
            {
                # a re-exports b's item; b names `crate::Thing`, which lib.rs re-exports from a.
                "lib.rs": "mod a;\nmod b;\npub use a::Thing;\n",
                "a.rs": "pub use crate::b::Other;\npub struct Thing;\n",
                "b.rs": "pub struct Other;\npub fn make() -> crate::Thing { crate::Thing }\n",
            },
        )
        self.assertEqual(self.ws.cycles(), ["x-one: a b"])

    def test_comments_strings_and_doc_links_are_not_arrows(self):
        self.ws.crate(
            "one",
            {
                "lib.rs": "mod a;\nmod b;\n",
                "a.rs": "use crate::b::B;\n",
                "b.rs": textwrap.dedent(
                    '''\
                    //! See [`A`](crate::a::A).
                    // use crate::a::A;
                    /* crate::a::A */
                    pub struct B;
                    pub const S: &str = "crate::a::A";
                    pub const R: &str = r#"use crate::a::A;"#;
                    pub const C: char = '"';
                    pub(in crate::b) fn private() {}
                    macro_rules! m { () => { use $crate::a::A; let _ = $crate::a::A; } }
                    '''
                ),
            },
        )
        self.assertEqual(self.ws.cycles(), [])

    def test_arrows_from_test_modules_count_and_are_marked(self):
        self.ws.crate(
            "one",
            {
                "lib.rs": "mod a;\nmod b;\n",
                "a.rs": "use crate::b::B;\n",
                "b.rs": "pub struct B;\n#[cfg(test)]\nmod tests {\n    use crate::a;\n}\n",
            },
        )
        code, out = self.ws.run("--all-arrows")
        self.assertIn("cycle x-one: a b", out)
        self.assertIn("b -> a: crates/one/src/b.rs:4 (test)", out)
        self.assertIn("a -> b: crates/one/src/a.rs:1\n", out)

    def test_a_cycle_among_the_submodules_of_a_directory_module_is_reported_with_super_paths(self):
        self.ws.crate(
            "one",
            {
                "lib.rs": "pub mod tag;\nmod other;\n",
                "other.rs": "use crate::tag::Tag;\n",
                "tag/mod.rs": "mod detect;\nmod mates;\npub struct Tag;\npub(crate) use detect::Facts;\n",
                "tag/detect.rs": "use super::mates;\npub struct Facts;\nfn all() { mates::all() }\n",
                # `super::Facts` goes through tag's re-export to detect
                "tag/mates.rs": "use super::{Facts, Tag};\npub fn all() {}\n",
            },
        )
        self.assertEqual(self.ws.cycles(), ["x-one::tag: detect mates"])

    def test_use_of_a_child_module_without_self(self):
        self.ws.crate(
            "one",
            {
                "lib.rs": "mod a;\nmod b;\n",
                "a.rs": "pub struct A;\n",
                "b/mod.rs": "mod inner;\nuse inner::X;\n",
                "b/inner.rs": "pub struct X;\nfn f() -> crate::a::A { crate::a::A }\n",
            },
        )
        crate = layers.Crate("x", self.ws.root / "crates/one/src/lib.rs", "x", self.ws.root)
        pairs = {(a.src, a.dst) for a in crate.arrows()}
        self.assertIn((("b",), ("b", "inner")), pairs)
        self.assertIn((("b", "inner"), ("a",)), pairs)


class Layers(Fixture):
    def test_a_crate_without_axum_that_depends_on_one_with_it_is_a_violation_also_transitively(self):
        self.ws.crate("web", {"lib.rs": ""}, name="x-web", deps={"axum": '"0.8"'})
        self.ws.crate("mid", {"lib.rs": ""}, name="x-mid", deps={"x-web": '{ path = "../web" }'})
        self.ws.crate("low", {"lib.rs": ""}, name="x-low", deps={"x-mid": '{ path = "../mid" }'})
        self.ws.crate("cli", {"main.rs": "fn main() {}\n"}, name="x-cli", deps={"x-web": '{ path = "../web" }'})
        self.assertEqual(self.ws.violations(), ["layer: x-low -> x-web", "layer: x-mid -> x-web"])
        code, out = self.ws.run()
        self.assertEqual(code, 1)
        self.assertIn("x-low -> x-mid -> x-web", out)
        self.assertIn("0 cycles, 2 layer violations", out)

    def test_crates_that_have_the_http_stack_themselves_may_depend_on_each_other(self):
        self.ws.crate("redis", {"lib.rs": ""}, name="x-redis", deps={"redis": '{ version = "1" }'})
        self.ws.crate("web", {"lib.rs": ""}, name="x-web", deps={"tower-http": '"0.6"', "x-redis": '{ path = "../redis" }'})
        self.assertEqual(self.ws.violations(), [])


class ServerLayers(Fixture):
    def test_the_domain_may_name_no_http_or_redis_crate(self):
        self.ws.crate("domain", {"lib.rs": ""}, name="x-domain", deps={"hyper": '"1"', "serde": '"1"'})
        self.assertEqual(self.ws.violations(), ["layer: x-domain -> hyper"])

    def test_the_transports_reach_the_domain_but_not_each_other(self):
        self.ws.crate("domain", {"lib.rs": ""}, name="x-domain")
        self.ws.crate("broker", {"lib.rs": ""}, name="x-broker", deps={"redis": '"1"', "x-domain": '{ path = "../domain" }'})
        self.ws.crate("http", {"lib.rs": ""}, name="x-http", deps={"axum": '"0.8"', "x-domain": '{ path = "../domain" }'})
        self.assertEqual(self.ws.violations(), [])
        self.ws.crate("web", {"lib.rs": ""}, name="x-web", deps={"x-broker": '{ path = "../broker" }'})
        (self.ws.root / "crates/http/Cargo.toml").write_text(
            cargo_toml("x-http", {"axum": '"0.8"', "x-web": '{ path = "../web" }'}), encoding="utf-8"
        )
        self.assertEqual(self.ws.violations(), ["layer: x-http -> x-broker", "layer: x-web -> x-broker"])


class Baseline(Fixture):
    def setUp(self) -> None:
        super().setUp()
        self.ws.crate(
            "one",
            {"lib.rs": "mod a;\nmod b;\n", "a.rs": "use crate::b::B;\npub struct A;\n", "b.rs": "use crate::a::A;\npub struct B;\n"},
        )

    def test_a_known_cycle_passes_a_new_one_fails_and_a_gone_one_must_be_deleted(self):
        code, out = self.ws.run()
        self.assertEqual(code, 1)
        self.assertIn("NEW: 'x-one: a b' is not in", out)
        code, out = self.ws.run("--write-baseline")
        self.assertEqual(code, 0)
        self.assertIn("x-one: a b\n", (self.ws.root / "tools/layers-baseline.txt").read_text())
        self.assertEqual(self.ws.run()[0], 0)
        # the cycle is removed: the baseline entry must go
        (self.ws.root / "crates/one/src/b.rs").write_text("pub struct B;\n")
        code, out = self.ws.run()
        self.assertEqual(code, 1)
        self.assertIn("baseline entry 'x-one: a b' no longer a cycle: delete it", out)


def fn_of(name: str, lines: int, head: str = "pub fn", indent: str = "") -> str:
    """A function whose text spans `lines` lines, from `fn` to its closing brace."""
    body = "".join(f"{indent}    let _x{k} = {k};\n" for k in range(lines - 2))
    return f"{indent}{head} {name}() {{\n{body}{indent}}}\n"


class LongFunctions(Fixture):
    def test_over_80_lines_is_reported_with_file_line_and_length_80_is_not(self):
        src = "/// doc\n#[inline]\n" + fn_of("short", 80) + fn_of("long", 81, head="pub(crate) async fn")
        self.ws.crate("server", {"lib.rs": "mod a;\n", "a.rs": src}, name="x-server")
        self.ws.crate("other", {"lib.rs": fn_of("elsewhere", 200)})  # not in LONG_FN_CRATES
        code, out = self.ws.run()
        self.assertEqual(code, 1)
        self.assertIn("long fn crates/server/src/a.rs:83 long (81 lines)\n", out)
        self.assertNotIn("short", out)
        self.assertNotIn("elsewhere", out)
        self.assertIn("0 cycles, 0 layer violations, 1 long functions", out)
        self.assertIn("NEW: 'long-fn: crates/server/src/a.rs long' is not in", out)

    def test_methods_const_and_nested_functions_count_trait_declarations_and_test_modules_do_not(self):
        nested = "fn outer() {\n" + fn_of("inner", 85, head="fn", indent="    ") + "}\n"
        src = (
            "struct S;\nimpl S {\n" + fn_of("method", 90, head="pub const fn", indent="    ") + "}\n"
            + "trait T {\n    fn declared(&self) -> [u8; 2];\n}\n"
            + 'fn braces_in_text() -> &\'static str {\n    "{{{"\n}\n'
            + nested
            + "#[cfg(test)]\nmod tests {\n" + fn_of("a_long_test", 120, head="fn", indent="    ") + "}\n"
        )
        self.ws.crate("server", {"lib.rs": "mod a;\n#[cfg(test)]\nmod t;\n", "a.rs": src, "t.rs": fn_of("t", 99)})
        got = {(f.name, f.lines) for f in layers.long_functions(self.ws.root, layers.workspace_packages(self.ws.root))}
        self.assertEqual(got, {("method", 90), ("inner", 85), ("outer", 87)})

    def test_the_baseline_lets_a_known_long_function_pass_and_must_shrink_when_it_is_split(self):
        self.ws.crate("server", {"lib.rs": fn_of("big", 81)}, name="x-server")
        self.assertEqual(self.ws.run("--write-baseline")[0], 0)
        baseline = (self.ws.root / "tools/layers-baseline.txt").read_text()
        self.assertIn("long-fn: crates/server/src/lib.rs big\n", baseline)
        self.assertEqual(self.ws.run()[0], 0)
        (self.ws.root / "crates/server/src/lib.rs").write_text(fn_of("big", 80))
        code, out = self.ws.run()
        self.assertEqual(code, 1)
        self.assertIn("baseline entry 'long-fn: crates/server/src/lib.rs big' no longer long: delete it", out)


if __name__ == "__main__":
    unittest.main(verbosity=1)
