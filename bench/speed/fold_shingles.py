"""gpudedup's default text definition replicated in Python, for the peers it is compared with:
`--normalize fold` (simple case folding, CaseFolding.txt status C+S; runs of Unicode
White_Space become one space; trimmed) and char k-grams over code points (a text shorter
than k is one shingle, an empty text has none). docs/architecture.md, "Definitions".
"""
import re

# Unicode White_Space (PropList.txt), the set gpudedup's normalization folds.
WHITE_SPACE = ("\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029"
               "\u202f\u205f\u3000")
_SPACE_RUN = re.compile("[" + WHITE_SPACE + "]+")
# The one class whose folding target is longer in UTF-8 than a member: gpudedup maps it to
# the shorter member so that normalizing in place never grows the text.
_SHORTER_MEMBER = {"\u2c65": "\u023a", "\u2c66": "\u023e"}
_fold_cache = {}


def _fold_char(c):
    """Simple case folding of one code point. Python's casefold() is full folding (C+F);
    where it yields more than one code point the simple mapping, when there is one, is
    the one-code-point lower case (U+1E9E -> U+00DF), else the code point stays."""
    f = c.casefold()
    if len(f) != 1:
        low = c.lower()
        f = low if len(low) == 1 else c
    return _SHORTER_MEMBER.get(f, f)


def fold(text):
    out = []
    for c in text:
        if c < "\u0080":
            out.append(c.lower())
            continue
        f = _fold_cache.get(c)
        if f is None:
            f = _fold_cache[c] = _fold_char(c)
        out.append(f)
    return "".join(out)


def normalize(text):
    """gpudedup's default normalization (fold): case folded, every run of Unicode
    White_Space one space, leading and trailing space removed."""
    if text.isascii():
        return _SPACE_RUN.sub(" ", text.lower()).strip(" ")
    return _SPACE_RUN.sub(" ", fold(text)).strip(" ")


def char_shingles(text, k):
    """The set of windows of k code points of the normalized text, as str."""
    t = normalize(text)
    if not t:
        return set()
    if len(t) <= k:
        return {t}
    return {t[i:i + k] for i in range(len(t) - k + 1)}
