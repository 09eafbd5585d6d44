"""The engine's one reading of currencies in a user's words, shared by the reducer's grounding check and
any local interpreter: ISO codes, symbols and names in many languages, all from Babel's CLDR data (no hand
table of currencies), plus the two slang words CLDR does not carry ("quid", "bucks").

    currency_mentions("900 pounds and 30 zł")  -> [Mention(4, 10, {"GBP", "EGP", …}), Mention(14, 16, {"PLN"})]
    amount_currencies("taxi CHF 30", Decimal("30"))  -> [frozenset({"CHF"})]

A name or symbol may stand for several currencies ("kr": SEK, NOK, DKK, ISK; "$": USD, CAD, AUD, …): a mention
carries every code it may mean, and a check asks whether the currency it expects is among them.

Plain Python, no Django: the pure core imports it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from babel import Locale
from babel.core import get_global

from .memo import once
from .numbers import NumberFound, numbers_found

# the languages whose names and symbols are read: the currencies' own languages for Europe's, and the large
# ones people write in (names in other languages still arrive through the codes and symbols)
_LOCALES = ("en", "en_GB", "en_US", "en_CA", "en_AU", "en_IN", "de", "de_CH", "de_AT", "fr", "fr_CH", "fr_CA", "it",
            "es", "es_MX", "pt", "pt_BR", "nl", "pl", "cs", "sk", "hu", "ro", "bg", "hr", "sl", "sv", "da", "nb", "fi",
            "is", "tr", "el", "ru", "uk", "ja", "zh", "ko", "hi", "th", "id", "he", "ar")
# slang and everyday abbreviations CLDR does not list
_SLANG = {"quid": frozenset({"GBP"}), "bucks": frozenset({"USD", "CAD", "AUD", "NZD"}),
          "buck": frozenset({"USD", "CAD", "AUD", "NZD"}), "rmb": frozenset({"CNY"}), "tl": frozenset({"TRY"}),
          "sfr": frozenset({"CHF"}), "ntd": frozenset({"TWD"}), "dhs": frozenset({"AED"}), "dh": frozenset({"AED", "MAD"}),
          "kc": frozenset({"CZK"}), "zl": frozenset({"PLN"}), "ft": frozenset({"HUF"}), "lv": frozenset({"BGN"})}


@dataclass(frozen=True, slots=True)
class CurrencyMention:
    start: int
    end: int
    text: str
    codes: frozenset[str]
    kind: str  # code | symbol | name


def fold(text: str) -> str:
    """Case- and accent-insensitive form: ``Złoty`` → ``zloty``, ``Genève`` → ``geneve`` (same length is not kept)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().replace("ł", "l").replace("ø", "o").replace("ß", "ss"))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@once
def current_currencies() -> frozenset[str]:
    """ISO codes legal tender somewhere today (CLDR's territory data): no Deutsche Mark, no Croatian kuna."""
    codes = set()
    for entries in get_global("territory_currencies").values():
        for code, _start, end, tender in entries:
            if end is None and tender:
                codes.add(code)
    return frozenset(codes)


@once
def _lexicon() -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """(symbols, names, head words), each folded text -> the codes it may mean."""
    codes = current_currencies()
    symbols: dict[str, set[str]] = {}
    names: dict[str, set[str]] = {}
    for identifier in _LOCALES:
        locale = Locale.parse(identifier)
        plural = locale._data.get("currency_names_plural", {})
        for code in codes:
            symbol = (locale.currency_symbols.get(code) or "").strip().replace("\xa0", " ")
            if symbol.rstrip(".").isalpha():
                symbol = symbol.rstrip(".")  # "kr." and "kr" are one symbol
            if symbol and symbol != code and (len(symbol) >= 2 or not symbol.isalpha()):
                symbols.setdefault(symbol, set()).add(code)
            forms = [locale.currencies.get(code)]
            counted = plural.get(code)
            if counted is not None and hasattr(counted, "values"):
                forms += list(counted.values())  # "pounds", "kronor", "złotych": every plural category
            for form in forms:
                if form and len(form) >= 3:
                    names.setdefault(fold(form), set()).add(code)
    for name, found in list(names.items()):  # the crowns in English: "czech crowns", "swedish crown"
        crowns = re.sub(r"\b(?:korun(?:a|as|y)?|kron(?:a|e|or|er))\b", "crowns", name)
        if crowns != name and " " in crowns:
            for form in (crowns, crowns[:-1]):
                names.setdefault(form, set()).update(found)
    heads: dict[str, set[str]] = {}
    for name, found in names.items():
        words = re.findall(r"[^\W\d_]+", name)
        if len(words) > 1:  # "swedish krona" → "krona"; "korona szwedzka" → "korona"; both ends of a name
            for word in (words[0], words[-1]):
                heads.setdefault(word, set()).update(found)
    for name, found in names.items():
        if " " not in name:
            heads.setdefault(name, set()).update(found)
    # a head word a country's adjective would also match is not a currency on its own ("swedish", "us"), nor is one
    # that is an everyday English word ("take", "gold", "sum"), unless English uses it for the money ("pounds")
    adjectives = {fold(w) for w in _territory_words()} | _NOT_MONEY_ALONE
    english = _english()
    heads = {w: c for w, c in heads.items() if len(w) >= 3 and w not in adjectives
             and (w in _ENGLISH_MONEY or english.word_usage_frequency(w) <= 1e-6)}
    for word, slang in _SLANG.items():
        heads.setdefault(word, set()).update(slang)
    frozen = lambda table: {k: frozenset(v) for k, v in table.items()}  # noqa: E731
    return frozen(symbols), frozen(names), frozen(heads)


# first words of a currency's name that are everyday words on their own: the directions of "Zuid-Afrikaanse rand",
# "Nord-Korea-Won", "Süd-Sudan-Pfund" ("a taxi to the office in zuid, €23"), and the Scots "fae" (from: "22.80 fae a
# hardware shop")
_NOT_MONEY_ALONE = frozenset({"zuid", "noord", "oost", "west", "sud", "nord", "sued", "sur", "norte", "este", "oeste",
                              "sul", "syd", "nor", "ost", "poludniowa", "severni", "jizni", "fae"})

_ENGLISH_MONEY = frozenset({"dollar", "dollars", "pound", "pounds", "buck", "bucks", "euro", "euros", "quid", "yen",
                            "yuan", "franc", "francs", "rupee", "rupees", "peso", "pesos", "shilling", "shillings",
                            "lira", "lire", "sterling", "real", "reais", "won", "rand", "krona", "kronor", "krone",
                            "kroner", "zloty", "forint", "koruna", "dinar", "dinars", "dirham", "dirhams", "baht",
                            "ringgit", "rupiah", "shekel", "shekels", "ruble", "rubles", "rouble", "roubles"})


def english_frequency(word: str) -> float:
    """How often an English text uses ``word`` (pyspellchecker's word list): everyday words are well above 1e-5."""
    return _english().word_usage_frequency(word.lower())


@once
def _english():
    from spellchecker import SpellChecker

    return SpellChecker(language="en")


@once
def _territory_words() -> frozenset[str]:
    """Words of territory names and their adjectives in English ("swiss", "united", "states"), which name no
    currency by themselves."""
    words = set()
    english = Locale.parse("en")
    for name in english.territories.values():
        words.update(re.findall(r"[^\W\d_]+", name.lower()))
    words.update({"swiss", "swedish", "danish", "norwegian", "polish", "czech", "british", "turkish", "hungarian",
                  "japanese", "chinese", "canadian", "australian", "american", "us", "new", "central", "african",
                  "east", "west", "special", "drawing", "rights", "of", "the", "and", "des", "de", "du", "la"})
    words -= {"euro", "pound", "dollar", "franc", "krona", "krone", "zloty", "lira", "yen", "rand", "won", "real"}
    return frozenset(words)


_TOKEN = re.compile(r"[^\W\d_]+\.?|[^\w\s.,'’\"“”()\[\]{}:;!?/\\-]+", re.UNICODE)


@once
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """One pattern for every name of several words ("swiss francs"), longest first, and one for every symbol
    ("US$" before "$"; a symbol of letters as a whole word: "kr", not the "kr" of "kraków")."""
    symbols, names, _heads = _lexicon()
    several = sorted((n for n in names if " " in n), key=len, reverse=True)
    named = re.compile(rf"(?<!\w)(?:{_by_first_character(several)})(?!\w)")
    return named, re.compile(_symbol_alternatives(sorted(symbols, key=len, reverse=True)))


def _symbol_alternatives(symbols: list[str]) -> str:
    r"""``a|b|…`` of the symbols, in the given order; one that ends in a letter only as a whole word (no letter
    before it or after it). Factored by first character, as ``_by_first_character``, and with every alternative
    starting with that character: the "no letter before" is asked once the first character matched
    (``k(?<![^\W\d_]k)r…`` is ``(?<![^\W\d_])kr…``), so the engine skips at once the places where no symbol
    starts instead of trying each of them (a lookbehind first made it try every alternative at every place)."""
    groups: dict[str, list[str]] = {}
    for symbol in symbols:
        first, rest = re.escape(symbol[:1]), re.escape(symbol[1:])
        whole = symbol[-1:].isalpha()
        groups.setdefault(symbol[:1], []).append(
            rf"(?<![^\W\d_]{first}){rest}(?![^\W\d_])" if whole else rest)
    return "|".join(f"{re.escape(first)}(?:{'|'.join(rests)})" for first, rests in groups.items())


def _by_first_character(alternatives: list[str]) -> str:
    """``a|b|…`` of literal strings, factored by their first character (``x(?:yz|y)|…``), each group in the given
    order. Alternatives that start with different characters cannot match at the same place, so the first that
    matches is the same one; the engine tries only those that start with the text's next character, not all of
    them at every place (the names of several words are thousands: 0.2 ms per message read in full)."""
    groups: dict[str, list[str]] = {}
    for alternative in alternatives:
        groups.setdefault(alternative[:1], []).append(alternative[1:])
    return "|".join(f"{re.escape(first)}(?:{'|'.join(map(re.escape, rests))})" for first, rests in groups.items())


def currency_mentions(text: str) -> list[CurrencyMention]:
    """Every currency the text names: codes (``EUR``, ``eur``), symbols (``€``, ``zł``, ``kr``, ``US$``),
    names and their plurals in many languages (``pounds``, ``złotych``, ``Franken``, ``kronor``), in order."""
    symbols, names, heads = _lexicon()
    named, symbolic = _patterns()
    text = text or ""
    found: list[CurrencyMention] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, codes: frozenset[str], kind: str) -> None:
        if any(start < e and s < end for s, e in taken):
            return
        taken.append((start, end))
        found.append(CurrencyMention(start, end, text[start:end], codes, kind))

    folded = fold(text)
    if len(folded) == len(text):  # names of several words first ("swiss francs", "pound sterling")
        for m in named.finditer(folded):
            add(m.start(), m.end(), names[m.group(0)], "name")
    for m in symbolic.finditer(text):  # a symbol of letters ("kr", "Ft", "Le") only beside a number
        if not m.group(0).rstrip(".").isalpha() or _beside_number(text, m.start(), m.end()):
            add(m.start(), m.end(), symbols[m.group(0)], "symbol")
    for m in _COMPOUND.finditer(text):  # "900 Süd-Won", "Zuid-Afrikaanse randen": the money's name is the last word
        first, last, whole = fold(m.group(0).split("-", 1)[0]), fold(m.group(0).rsplit("-", 1)[1]), fold(m.group(0))
        begun = frozenset(code for name, codes in names.items() if name.startswith(whole + " ") for code in codes)
        after = re.match(r"\s+([^\W\d_]+)", text[m.end():])
        told = fold(after.group(1)) if after else ""
        if (last in heads or begun) and _beside_number(text, m.start(), m.end()):
            # the most particular reading: the whole name, the country's word ("Hongkong-Dollars" is no US dollar), the
            # money's word ("Süd-Won"); a name begun so ("Zuid-Afrikaanse randen")
            codes = names.get(whole) or (heads[first] & heads[last] if first in heads and last in heads else None) or (
                heads.get(first) if first in heads else None) or heads.get(last) or begun
            add(m.start(), m.end(), codes, "name")
        elif after is not None and told in heads and _beside_number(text, m.start(), m.end()):
            add(m.start(), m.end() + after.end(), heads[told], "name")  # "30 Süd-Afrikanische rand": the name, then the money
    for m in _TOKEN.finditer(text):
        word = m.group(0).rstrip(".")
        if not word:
            continue
        end = m.start() + len(word)
        if len(word) == 3 and word.isalpha() and word.upper() in current_currencies() and (word.isupper() or word.islower()):
            # a code names money ("CHF 30", "in EUR", "(PLN)", "… expo usd"), unless it names a thing ("the PHP
            # conference", "CAD drawings"); one that is an English word ("try", "all", "top") only in capitals beside
            # a number
            wordlike = _english().word_usage_frequency(word.lower()) > 1e-6
            beside = _beside_number(text, m.start(), end)
            if (beside and (not wordlike or word.isupper())) or (not beside and not wordlike and not _ACRONYM.match(
                    text, end)):
                add(m.start(), end, frozenset({word.upper()}), "code")
            continue
        key = fold(word)
        if word[:1].isupper() and re.search(r"[A-ZÀ-Þ][^\W\d_]*\s+$", text[:m.start()]):
            continue  # "Chez Léon 42,80": a word of a name, not the leone
        if key in heads and (_beside_number(text, m.start(), end) or (
                key in _SAID_ALONE and _standing_alone(text, m.start(), end))):
            add(m.start(), end, heads[key], "name")
    return sorted(found, key=lambda f: f.start)


# a name joined by hyphens ("Süd-Won", "Kenia-Schilling"): read whole when its last word is a currency's
_COMPOUND = re.compile(r"(?<![\w-])[^\W\d_]+(?:-[^\W\d_]+)+(?![\w-])")

# a code followed by a thing it names as an acronym: "PHP conference", "CAD team", "ALL hands"
_ACRONYM = re.compile(r"\s+(?:conference|conf|team|developers?|dev|software|drawings?|designs?|training|course|workshop|"
                      r"meetup|summit|project|hands|meeting|license|licence|book|books|certification|exam)\b", re.IGNORECASE)

# the currency an English speaker means by a word several currencies share, when the words say no more
_ENGLISH_MEANING = {"dollar": "USD", "dollars": "USD", "bucks": "USD", "buck": "USD", "$": "USD", "pound": "GBP",
                    "pounds": "GBP", "quid": "GBP", "£": "GBP", "franc": "CHF", "francs": "CHF", "yen": "JPY",
                    "¥": "JPY", "euro": "EUR", "euros": "EUR", "rupee": "INR", "rupees": "INR", "lira": "TRY",
                    "rand": "ZAR", "real": "BRL", "reais": "BRL", "peso": "MXN", "pesos": "MXN", "yuan": "CNY"}


def _beside_number(text: str, start: int, end: int) -> bool:
    """A number right before the word (``20 rand``, ``1,5 pound``, ``30, kronor``) or right after it (``kr 320``),
    or ``in`` / ``of`` before it (``paid in pounds``)."""
    before = text[:start].rstrip()
    if re.search(r"\d[\s,]*$", before) or re.search(r"\d\s*(?:k|m|mio|million|thousand|hundred)$", before, re.IGNORECASE):
        return True
    if re.match(r"\s*[-:]?\s*\d", text[end:]):
        return True
    if re.search(r"\bcurrency\s*(?:is|:|=|will\s+be|should\s+be|of|in)?\s*(?:the\s+)?$", before, re.IGNORECASE):
        return True  # "Currency is yen", "currency: kronor"
    if re.search(r"(?:\b(?:in|of|worth|some|few|many|in\s+local)\s*)$", before, re.IGNORECASE):
        return True
    from .numbers import number_words  # words before it: "twenty pounds"

    return any(n.end == len(before) for n in number_words(before))


# names of money that, said as a clause of their own, can mean nothing else ("tak." is thanks, not the taka)
_SAID_ALONE = frozenset("pound pounds euro euros dollar dollars franc francs yen kroner kronor krone zloty zlotys zloty "
                        "złoty złotych koruna korun rupee rupees lira real reais rand peso pesos yuan".split())


def _standing_alone(text: str, start: int, end: int) -> bool:
    """The word is a sentence or a clause of its own (``… called 'Cork'. pounds. taxi 20``, ``…, euros please``)."""
    return bool(re.search(r"(?:^|[.!;:,])\s*$", text[:start])) and bool(
        re.match(r"\s*(?:please|pls|plz|thanks)?\s*(?:[.!;]|$)", text[end:], re.IGNORECASE))


def _adjacent(number: NumberFound, mention: CurrencyMention, text: str) -> bool:
    """Does the mention belong to the number: inside its span, or next to it with at most a space between?"""
    if number.start <= mention.start and mention.end <= number.end:
        return True
    if mention.end <= number.start:
        return not text[mention.end:number.start].strip()
    if mention.start >= number.end:
        gap = text[number.end:mention.start]
        return not gap.strip() or gap.strip().lower() in ("-", ",-", ".-", "in")  # "30 in euros"
    return False


def amount_currencies(text: str, value: Decimal, mentions: list[CurrencyMention] | None = None,
                      ) -> list[frozenset[str] | None]:
    """For each place ``text`` states the number ``value``: the codes of the currency written beside it, or None
    when none is. Empty when the text does not state it. ``mentions``: the text's ``currency_mentions``, when the
    caller has them already."""
    mentions = currency_mentions(text) if mentions is None else mentions
    out: list[frozenset[str] | None] = []
    for number in numbers_found(text):
        if number.value != value:
            continue
        beside = [m for m in mentions if _adjacent(number, m, text)]
        out.append(frozenset().union(*(m.codes for m in beside)) if beside else None)
    return out


def amount_in_currency(text: str, value: Decimal, currency: str) -> bool:
    """Is ``value`` stated in ``text`` as an amount of ``currency``? True when one place states it with that
    currency beside it, or without a currency while the text names no other currency at all; False when the
    number is written in another currency, or bare beside another currency's name ("30, paid in francs")."""
    mentions = currency_mentions(text)  # read once: the text's scan is the costly part
    places = amount_currencies(text, value, mentions)
    if any(codes is not None and currency in codes for codes in places):
        return True
    foreign = any(currency not in m.codes for m in mentions)
    return not foreign and (any(codes is None for codes in places) or not places)


def currencies_named(text: str) -> frozenset[str]:
    """Every code the text's currency mentions may mean."""
    return frozenset().union(*(m.codes for m in currency_mentions(text))) if text else frozenset()


@once
def _native_forms() -> dict[str, frozenset[str]]:
    """Code -> the folded words its own countries' languages call it ("kronor" for SEK, "kroner" for NOK and DKK,
    "złoty"/"złotych" for PLN): what a word shared by several currencies means when a person of that country says it."""
    from babel.core import get_global as _global
    from babel.languages import get_territory_language_info

    territories: dict[str, set[str]] = {}
    for territory, entries in _global("territory_currencies").items():
        for code, _start, end, tender in entries:
            if end is None and tender:
                territories.setdefault(code, set()).add(territory)
    forms: dict[str, set[str]] = {}
    for code, places in territories.items():
        for territory in places:
            for language, info in get_territory_language_info(territory).items():
                if info.get("official_status") not in ("official", "de_facto_official"):
                    continue
                try:
                    locale = Locale.parse(f"{language}_{territory}")
                except Exception:  # noqa: BLE001 - a language CLDR has no data for names nothing
                    continue
                names = [locale.currencies.get(code)]
                counted = locale._data.get("currency_names_plural", {}).get(code)
                if counted is not None and hasattr(counted, "values"):
                    names += list(counted.values())
                for name in names:
                    if name:
                        forms.setdefault(code, set()).update(re.findall(r"[^\W\d_]+", fold(name)))
    return {code: frozenset(words) for code, words in forms.items()}


def currency_meant(mention: CurrencyMention, allowed: Iterable[str] | None = None) -> str | None:
    """The one currency a mention means among ``allowed`` (all when None): the only candidate, or the only one whose
    own country calls it so ("kronor" is Swedish: SEK; "kr" alone stays open). None when it stays open."""
    codes = set(mention.codes) & set(allowed) if allowed is not None else set(mention.codes)
    if len(codes) == 1:
        return next(iter(codes))
    word = fold(mention.text)
    native = {code for code in codes if word in _native_forms().get(code, ())}
    if len(native) == 1:
        return next(iter(native))
    english = _ENGLISH_MEANING.get(word) or _ENGLISH_MEANING.get(mention.text)
    return english if english in codes else None  # "dollars": US dollars, unless the words say which
