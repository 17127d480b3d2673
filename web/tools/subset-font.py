#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The web UI's Chinese font: subsets of Noto Sans CJK SC Regular and Bold with only the CJK characters our texts use.

    python3 web/tools/subset-font.py            # writes web/fonts/GuoxiangCJK-{Regular,Bold}.woff2 and
                                                # web/fonts/GuoxiangCJK.json (what they were made from and of)
    python3 web/tools/subset-font.py --check    # fails if a committed font lacks a character or is not what
                                                # this script builds now (CI runs this before the web build)

The texts: every file with a text extension under web/src, web/index.html, course/ and crates/*/src/ (the review
and tactics sentences, rules explanations, server messages, opening names). The characters: CJK ideographs, CJK
symbols and punctuation (、。「」…), full-width forms (，：（）！？) and the other CJK blocks of
UNICODE_RANGE below, which style.css's @font-face rules repeat as their unicode-range: Latin text never uses this font.

Needs: Debian's fonts-noto-cjk (apt-get install -y fonts-noto-cjk; SIL Open Font License 1.1) and, from PyPI,
fonttools and brotli at the versions pinned below (python3 -m pip install fonttools==4.69.1 brotli==1.2.1). The
output is deterministic: the same source fonts and the same fonttools and brotli give the same bytes (the code
points are sorted, the source's timestamps are kept, WOFF2 has none of its own).
"""

import argparse
import hashlib
import io
import json
import os
import sys
from pathlib import Path

FONTTOOLS_VERSION = "4.69.1"
BROTLI_VERSION = "1.2.1"
SOURCE_DIR = "/usr/share/fonts/opentype/noto"
SOURCE_FAMILY = "Noto Sans CJK SC"  # the face of each collection we take
FAMILY = "GuoxiangCJK"
WEIGHTS = ["Regular", "Bold"]  # NotoSansCJK-{weight}.ttc → web/fonts/GuoxiangCJK-{weight}.woff2
INSTALL = ("apt-get install -y fonts-noto-cjk && "
           f"python3 -m pip install fonttools=={FONTTOOLS_VERSION} brotli=={BROTLI_VERSION}")

# The blocks the font covers (and style.css's unicode-range): CJK radicals, CJK symbols and punctuation, CJK
# strokes, enclosed CJK, CJK compatibility, CJK extension A, the unified ideographs, compatibility ideographs,
# vertical and compatibility forms, half-width and full-width forms.
UNICODE_RANGE = [
    (0x2E80, 0x2FDF),
    (0x3000, 0x303F),
    (0x31C0, 0x31EF),
    (0x3200, 0x33FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF),
    (0xFE10, 0xFE1F),
    (0xFE30, 0xFE4F),
    (0xFF00, 0xFFEF),
]
TEXT_EXTENSIONS = {".rs", ".ts", ".tsx", ".css", ".html", ".toml", ".tsv", ".csv", ".txt", ".json"}

ROOT = Path(__file__).resolve().parents[2]
FONTS = ROOT / "web" / "fonts"
MANIFEST = ROOT / "web" / "fonts" / f"{FAMILY}.json"


def in_range(cp):
    return any(lo <= cp <= hi for lo, hi in UNICODE_RANGE)


def text_files():
    """The texts' files, in a fixed order (sorted paths)."""
    roots = [ROOT / "web" / "src", ROOT / "course"]
    crates = ROOT / "crates"
    if crates.is_dir():
        roots += sorted(p / "src" for p in crates.iterdir() if (p / "src").is_dir())
    files = [ROOT / "web" / "index.html"]
    for r in roots:
        for dirpath, dirnames, filenames in os.walk(r):
            dirnames.sort()
            files += [Path(dirpath) / f for f in sorted(filenames) if Path(f).suffix in TEXT_EXTENSIONS]
    return [f for f in files if f.is_file()]


def used_characters():
    """{code point: first place (path:line) it occurs} over the texts."""
    first = {}
    for f in text_files():
        try:
            text = f.read_text(encoding="utf-8")
        except UnicodeDecodeError as e:
            sys.exit(f"subset-font: {f.relative_to(ROOT)} is not UTF-8 ({e})")
        for lineno, line in enumerate(text.splitlines(), 1):
            for ch in line:
                cp = ord(ch)
                if cp >= 0x2E80 and in_range(cp) and cp not in first:
                    first[cp] = f"{f.relative_to(ROOT)}:{lineno}"
    return first


def need_tools():
    try:
        import brotli
        import fontTools
    except ImportError as e:
        sys.exit(f"subset-font: {e.name} is missing; install: {INSTALL}")
    got = {"fonttools": fontTools.version, "brotli": brotli.__version__}
    want = {"fonttools": FONTTOOLS_VERSION, "brotli": BROTLI_VERSION}
    if got != want:
        sys.exit(f"subset-font: need fonttools {FONTTOOLS_VERSION} and brotli {BROTLI_VERSION}, found "
                 f"fonttools {got['fonttools']} and brotli {got['brotli']}; install: {INSTALL}")
    return got


def face_index(path):
    from fontTools.ttLib import TTCollection

    names = []
    for i, f in enumerate(TTCollection(str(path), lazy=True).fonts):
        name = f["name"].getDebugName(1)
        if name == SOURCE_FAMILY:
            return i
        names.append(name)
    sys.exit(f"subset-font: {path} has no face '{SOURCE_FAMILY}' (it has {', '.join(names)})")


def build(source, weight, codepoints):
    """The subset font's WOFF2 bytes and its glyph count."""
    from fontTools import subset

    options = subset.Options()
    options.flavor = "woff2"
    options.font_number = face_index(source)
    # Horizontal text only, no hinting (browsers draw CJK outlines unhinted or autohinted): no vertical metrics, no
    # hints, and of the layout features only the punctuation spacing ones a browser applies by itself (halt, chws:
    # CSS text-spacing-trim) and kerning; no localized forms (locl would pull in the Japanese and Korean glyphs).
    options.layout_features = ["halt", "chws", "kern"]
    options.hinting = False
    options.desubroutinize = True
    options.drop_tables += ["vhea", "vmtx", "VORG", "BASE"]
    options.notdef_outline = True
    font = subset.load_font(str(source), options, dontLoadGlyphNames=True)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(codepoints))
    subsetter.subset(font)
    rename(font, weight)
    buf = io.BytesIO()
    subset.save_font(font, buf, options)
    return buf.getvalue(), font["maxp"].numGlyphs


def rename(font, weight):
    """A modified version of the font may not go by the original's names (SIL OFL 1.1, condition 3): ours is
    GuoxiangCJK. The copyright notice, license description and license URL are kept (condition 2)."""
    name = font["name"]
    version = name.getDebugName(5)
    for rec in list(name.names):
        if rec.nameID in (1, 2, 3, 4, 6, 10, 16, 17, 18, 21, 22):
            name.removeNames(nameID=rec.nameID)
    for nid, value in [
        (1, FAMILY),
        (2, weight),
        (3, f"{FAMILY}-{weight};{version}"),
        (4, f"{FAMILY} {weight}"),
        (6, f"{FAMILY}-{weight}"),
        (10, f"A subset of {SOURCE_FAMILY} {weight} ({version}) with the characters of guoxiang's texts, "
             "made by guoxiang's web/tools/subset-font.py; SIL Open Font License 1.1."),
    ]:
        name.setName(value, nid, 3, 1, 0x409)
    cff = font["CFF "].cff
    top = cff[cff.fontNames[0]]
    cff.fontNames[0] = f"{FAMILY}-{weight}"
    top.FullName = f"{FAMILY} {weight}"
    top.FamilyName = FAMILY


def cmap_of(path):
    from fontTools.ttLib import TTFont

    return set(TTFont(str(path))["cmap"].getBestCmap())


def fmt(cps):
    s = "".join(chr(c) for c in sorted(cps))
    return s if len(s) <= 60 else s[:60] + f"… ({len(s)} in all)"


def plural(n, word):
    return f"{n} {word}{'' if n == 1 else 's'}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="check the committed fonts instead of writing them")
    ap.add_argument("--source-dir", default=SOURCE_DIR,
                    help=f"where NotoSansCJK-Regular.ttc and NotoSansCJK-Bold.ttc are (default {SOURCE_DIR})")
    args = ap.parse_args()
    regenerate = f"run 'python3 web/tools/subset-font.py' (needs: {INSTALL}), then 'cd web && npm run build', " \
                 "and commit web/fonts and web/dist"
    outs = {w: FONTS / f"{FAMILY}-{w}.woff2" for w in WEIGHTS}
    rel = lambda p: p.relative_to(ROOT)  # noqa: E731

    used = used_characters()
    if args.check:
        for out in outs.values():
            if not out.is_file():
                sys.exit(f"subset-font: {rel(out)} is missing: {regenerate}")
        need_tools()
        for out in outs.values():
            missing = set(used) - cmap_of(out)
            if missing:
                where = "; ".join(f"{chr(c)} {used[c]}" for c in sorted(missing)[:5])
                sys.exit(f"subset-font: {rel(out)} lacks {plural(len(missing), 'character')} the texts use "
                         f"({fmt(missing)}; first places: {where}): {regenerate}")
    versions = need_tools()
    manifest = {"characters": len(used), "fonttools": versions["fonttools"], "brotli": versions["brotli"], "fonts": []}
    built = {}
    for w in WEIGHTS:
        source = Path(args.source_dir) / f"NotoSansCJK-{w}.ttc"
        if not source.is_file():
            sys.exit(f"subset-font: no source font at {source}; install: {INSTALL}")
        data, glyphs = build(source, w, used)
        built[w] = data
        manifest["fonts"].append({
            "font": str(rel(outs[w])),
            "bytes": len(data),
            "glyphs": glyphs,
            "sha256": hashlib.sha256(data).hexdigest(),
            "source": f"{source.name}, face '{SOURCE_FAMILY}' (Debian fonts-noto-cjk)",
            "source_sha256": hashlib.sha256(source.read_bytes()).hexdigest(),
        })
    summary = ", ".join(f"{f['font']}: {f['glyphs']} glyphs, {f['bytes']} bytes" for f in manifest["fonts"])
    if args.check:
        try:
            recorded = json.loads(MANIFEST.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            recorded = {}
        for w, entry in zip(WEIGHTS, manifest["fonts"]):
            if outs[w].read_bytes() == built[w]:
                continue
            old = next((f for f in recorded.get("fonts", []) if f.get("font") == entry["font"]), {})
            why = [f"{k} was {recorded.get(k)}, is {manifest[k]}" for k in ("fonttools", "brotli")
                   if recorded.get(k) != manifest[k]]
            if old.get("source_sha256") != entry["source_sha256"]:
                why.append(f"the source's sha256 was {old.get('source_sha256')}, is {entry['source_sha256']}")
            extra = cmap_of(outs[w]) - set(used)
            if extra:
                why.append(f"it has {plural(len(extra), 'character')} the texts no longer use ({fmt(extra)})")
            sys.exit(f"subset-font: {rel(outs[w])} is not what the texts build now "
                     f"({'; '.join(why) or 'same inputs, different bytes'}): {regenerate}")
        print(f"subset-font: up to date, {plural(len(used), 'character')}: {summary}")
        return
    FONTS.mkdir(parents=True, exist_ok=True)
    for w in WEIGHTS:
        outs[w].write_bytes(built[w])
    MANIFEST.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"subset-font: wrote {plural(len(used), 'character')}: {summary}")


if __name__ == "__main__":
    main()
