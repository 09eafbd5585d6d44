"""Chat shorthand read as the words it stands for, with every position kept.

People type "rm ln 2 dup", "htl 2n 149ea", "new clm Chicago expo usd", "ln2 s/b 179". The
interpreter reads a *spelled-out* copy of the message ("remove line 2 duplicate", …); every
character of the copy remembers the span of the user's text it came from, so each evidence quote
in the plan is mapped back to the user's own words before the plan leaves the interpreter. Only
whole letter tokens are replaced (numbers are never touched), so an amount the reducer must find in
the evidence is the same number in both texts.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import date, timedelta

from . import lexicon

_TOKEN = re.compile(r"(?<![\w/'’-])(?:(?:s/b|w/o|w/)|\d{1,2}n(?![\w'’.,-])|(?<=#)\d{2,}(?![\d.,])|[A-Za-z]+(?=\d)|[^\W\d_]+(?![\w'’-]|/\w))")

_ENGLISH_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ENGLISH_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                   "november", "december")
# May in Polish, and a name ("for Maja: lunch 14"); the months' short forms that are everyday words of other languages
# ("Hôtel des Arts", "cada uno", "sie")
_NAMES_TOO = frozenset({"maj", "maja", "des", "uno", "sie", "mag", "lis", "joi", "jula", "juna", "mája"})
# the languages whose days and months people write among their English ("lunedì: taxi 18,50", "Vy train tirsdag",
# "kolacja środa", "am 3. Dezember")
_CALENDAR_LOCALES = ("de", "fr", "it", "es", "nl", "pl", "sv", "nb", "da", "cs", "pt", "ro", "hu", "fi", "sk", "sl", "hr",
                     "ca")
# the languages whose short month names are too like other words to be read ("mai", "máj"): their whole names only
_WIDE_MONTHS_ONLY = ("pl", "cs", "ro", "hu", "fi", "sk", "sl", "hr", "ca")  # (Turkish months are names too: Nisan, Mart)


@functools.cache
def _pieces() -> re.Pattern[str]:
    """The chat words' tokens, and before them the phrases of several words ("nota spese", "ta bort")."""
    phrases = sorted((p for p in (*lexicon.CHAT_PHRASES, *lexicon.CHAT_WORDS, *lexicon.WORDS_ABROAD)
                      if re.search(r"[\s'-]", p)), key=len, reverse=True)
    return re.compile(rf"(?<![\w/'’-])(?:{'|'.join(r'\s+'.join(map(re.escape, p.split())) for p in phrases)})(?![\w'’-])|"
                      + _TOKEN.pattern, re.IGNORECASE)


# words before a name, never before a day: "at Domingo", "with Avril", "Mr Montag", "Trattoria Domenica"
_NAME_LEADS = frozenset("at with for by from mr mrs ms dr herr frau chez bei hotel trattoria restaurant ristorante "
                        "restaurante cafe café bar brasserie osteria taverna pizzeria club team".split())
# words before a day or a month in the languages people mix in: "am Montag", "le lundi", "el martes", "w środę"
_DATE_LEADS = frozenset("on am le el il lo w we på i om op den de du au al vom bis seit ab dal del desde od do hasta na no "
                        "fino since until till".split())
_MONTHS_EN = frozenset(_ENGLISH_MONTHS)


# what was paid for, said right before the day it was ("jantar segunda 19,80")
_EXPENSE_BEFORE_A_DAY = frozenset("jantar almoco lanche cafe pequeno taxi uber bolt hotel comboio voo estacionamento "
                                  "gasolina portagem dinner lunch breakfast train flight parking".split())
# Portuguese weekdays said without "-feira" ("na segunda"), which are ordinals and names too ("Quinta do Lago")
_DAYS_SHORT_PT = frozenset("segunda terca quarta quinta sexta".split())


def _folded(word: str) -> str:
    from unidecode import unidecode

    return unidecode(word).lower()


# "le 1er soir", "le 1er jour du salon", "le 1er taxi": the first of a kind, never the first of the month
_FIRST_OF_A_KIND = frozenset("soir jour matin midi trimestre semestre mois fois étage etage voyage vol train repas client "
                             "rendez-vous salon essai".split())
# the French "first" of a month: "le 1er décembre", "1er déc." (read as "1st")
_FIRST_OF_FRENCH = re.compile(r"(?:(?P<le>\ble\s+)|(?<![\d.,]))1(?P<er>er)\b(?:\s+(?P<month>[^\W\d_]{3,9})\b)?", re.IGNORECASE)


def abroad_meant(message: str, start: int, end: int) -> bool:
    """Does the word of another language at ``start:end`` mean what it says there, or is it part of a name?

    A day or a month is one where it is written small ("martedì cena 58"), after a word that leads to a day ("am Montag",
    "le 3 décembre"), or heading a line ("Lunedì: …"); a month only beside the number of its day ("3. Dezember"). Never
    inside quotes, after "at"/"with"/"Mr"/"Hotel" ("coffee at Enero", "lunch with Avril 12", "Hotel Juli 2 nights"), nor
    beside another capitalised word of the same name ("Domingo Festival")."""
    token = message[start:end]
    if lexicon.WORDS_ABROAD.get(" ".join(token.lower().split())) in ("forget it", "forget that", "never mind") and re.match(
            r"[ \t]*[,:;–—-]?[ \t]*[^\W\d_]", message[end:]):
        return False  # "vergiss das Mittagessen", "vergiss es nicht": what it leaves out, or not at all, is for the audit
    before = re.findall(r"[^\W\d_]+", message[:start].lower())[-2:]
    if message[:start].count('"') % 2 or message[:start].count("“") > message[:start].count("”"):
        return False  # a quoted title ("Nuova Sede", "Domingo festival")
    if any(w in _NAME_LEADS for w in before) and not (before and before[-1] in ("from", "de", "du", "dal", "desde", "von") and (
            ahead := re.match(r"\s+(?:to|until|till|au|à|a|al|bis|hasta|até|tot)\s+([^\W\d_]+)", message[end:])) and (
            ahead.group(1).lower() in calendar_abroad() or ahead.group(1).lower() in _ENGLISH_DAYS)):
        return False  # ("from lundi to jeudi": a stay's days, never a name)
    capitalised = token[:1].isupper()
    if before and before[-1] in ("am", "op") and calendar_abroad().get(token.lower()) in _ENGLISH_DAYS and \
            message[start - 3:start - 1].lower() in ("am", "op"):
        return True  # "am Montag Taxi vom Hbf …", "op Maandag": German and Dutch "on" before a weekday, however capitalised
    left = re.search(r"([^\W\d_][\w'’-]*)\W{0,2}$", message[:start])
    right = re.match(r"\W{0,2}([^\W\d_][\w'’-]*)", message[end:])
    at_start = not message[:start].strip() or re.search(r"[.!?:;\n]\s*$", message[:start]) is not None
    english = calendar_abroad().get(token.lower())
    from ..naming import city_aliases
    if capitalised and ((left and left.group(1)[:1].isupper() and not at_start and not (
            english and english not in _MONTHS_EN and city_aliases(left.group(1)))) or (
            english and right and right.group(1)[:1].isupper() and not re.match(r"\s*[:,]", message[end:]) and not (
                at_start and english not in _MONTHS_EN and re.fullmatch(r"[A-Z]{2,4}", right.group(1))) and not (
                english in _ENGLISH_DAYS and right.group(1).lower() in lexicon.CATEGORY_WORDS))):
        # ("…, Mittwoch Mittagessen in der Kantine 9,80": a day before what was bought, its noun capitalised in German)
        # ("Maandag KLM AMS-CPH 246,30": a day heading a sentence before an acronym is that day)
        return False  # "Trattoria Domenica", "Domingo Festival": a name of several capitalised words
    if english is None:
        return True  # a request's word ("Neue Claim bitte", "invia pure", "fjern den")
    if token in ("Fr", "SFr") and re.match(r"\.?\s?\d+(?:\.-|,-|[.,]\d\d(?!\.?\d))", message[end:]):
        return False  # "Mittagessen Fr. 27.50", "Fr. 34.-": Swiss francs, never Friday (Freitag)
    if _folded(token) in _DAYS_SHORT_PT and (not (before and (before[-1] in _DATE_LEADS or (
            # "1 noite, segunda, 78,00", "Jantar segunda 19,80", "almoço terça com …": after an expense and before a
            # figure, a stop or "e"/"com", or alone between commas, a day ("taxi segunda vez", "a segunda noite": ordinals)
            (_folded(before[-1]) in _EXPENSE_BEFORE_A_DAY and re.match(r"\s*(?:[,;.:]|\d|[€$£]|com\s|(?:e|and)\s+(?:segunda|ter[cç]a|quarta|quinta|sexta|s[áa]bado|domingo)\b|$)",
                                                                         message[end:], re.IGNORECASE))
            or (re.search(r"[,;]\s*$", message[:start]) and re.match(r"\s*(?:[,;.]|\d)", message[end:]))))) or re.match(
                r"\s+(?:do|da|dos|das|de|del)\b", message[end:], re.IGNORECASE)):
        return False  # "na quinta", "on segunda": a day; "Quinta do Lago", "a segunda viagem": a place, an ordinal
    if english in _MONTHS_EN:
        return bool(re.search(r"\b\d{1,2}(?:\.|er)?\s*(?:de\s+|of\s+)?$", message[:start])
                    or re.match(r"\s*\d{1,2}\b(?![.,]\d)", message[end:]))
    # ("Bahn Frankfurt–Hamburg Montag, ICE, 129,90": the day of a route, after the city it went to)
    return not capitalised or (bool(before) and before[-1] in _DATE_LEADS) or at_start or bool(
        left and left.group(1)[:1].isupper() and city_aliases(left.group(1))) or bool(
        english in _ENGLISH_DAYS and re.search(r"[,;]\s*$", message[:start]) and right and right.group(1).lower() in
        lexicon.CATEGORY_WORDS)  # ("…, Mittwoch Mittagessen …": a day heading what was bought, after a comma)


@functools.cache
def calendar_abroad() -> dict[str, str]:
    """Day and month names of other languages (Babel's CLDR data, wide forms, with and without accents), each as the
    English name it stands for; never a word that is English too ("mars", "mayo")."""
    from babel.dates import get_day_names, get_month_names
    from unidecode import unidecode

    from .english import known_word

    names: dict[str, str] = {}
    for locale in _CALENDAR_LOCALES:
        for index, name in get_day_names("wide", locale=locale).items():
            for form in {name.lower(), unidecode(name).lower()}:
                names.setdefault(form, _ENGLISH_DAYS[index])
                if form.endswith("-feira"):
                    names.setdefault(form.removesuffix("-feira"), _ENGLISH_DAYS[index])  # "na segunda": Monday
        for context in ("format", "stand-alone"):
            for width in ("wide", "abbreviated") if locale not in _WIDE_MONTHS_ONLY else ("wide",):  # "Dezember", "Dez."
                for number, name in get_month_names(width, context=context, locale=locale).items():
                    for form in {name.lower().rstrip("."), unidecode(name).lower().rstrip(".")}:
                        if len(form) >= 3 and not any(english.startswith(form) for english in _ENGLISH_MONTHS):
                            names.setdefault(form, _ENGLISH_MONTHS[number - 1])  # ("Dec", "Nov": English already)
    return {form: english for form, english in names.items()
            if form != english and not known_word(form) and re.fullmatch(r"[^\W\d_]+", form) and form not in _NAMES_TOO}



# an expense taken back right after it is told, naming it again ("… cab tae BER 41 - actually naw, the promoter paid
# that cab, leave it out", "… dinner 52.30 … ah não, the client paid that dinner, forget it", "… the umbrella I
# bought... actually no, leave the umbrella, that one is personal")
_TAKE_BACK = re.compile(
    r"(?:\s*(?:[-–—]+|\.{2,}|…|,|;))\s*(?P<seg>(?:(?:ah|oh|hmm|um|och|ugh|oops)\s*,?\s+)?(?:actually\s*,?\s+(?:no|naw|nah|"
    r"not)|no\s+wait|wait\s*,?\s+no|no\s+espera|espera\s*,?\s+no|no\s+aspetta|aspetta\s*,?\s+no|nein\s*,?\s+warte|"
    r"warte\s*,?\s+nein|non\s+attends|nah|naw|nope|no|não|nao|nei|nein|non|wait)\b[,.!]?\s+[^.!?\n]*?\b(?:paid|pagó|pago|pagou|"
    r"payé|bezahlt|pagato|pagata|zapłacił|zapłaciła|betalte|betalade|personal|private|"
    r"leave\s+(?:it|that|them|the\s+\w+)(?:\s+(?:out|off))?|forget\s+(?:it|that|about\s+it)|skip\s+(?:it|that)|not\s+for\s+"
    r"this\s+claim|not\s+mine|don'?t\s+(?:add|include|claim|put)\s+(?:it|that)|scratch\s+(?:it|that))\b[^.!?\n]*?)"
    r"(?=[.!?\n]|$)", re.IGNORECASE)
# "…, and coffee ¥480. Sorry, the coffee please do not add, I paid it with my personal card": the thing named, then
# not to add it (an apology alone may open a correction: "Sorry, the taxi was 25")
_SORRY_TAKE_BACK = re.compile(r"(?:\.\s+|[,;]\s*|\s[-–—]+\s*)(?P<seg>(?:sorry|oops|ah)\s*,?\s+(?:the|that|my)\s+[^.!?\n]{1,40}?\s*,?\s*"
                              r"(?:please\s+|pls\s+)?(?:do\s+not|don'?t|dont|not\s+to)\s+(?:add|include|claim|put)\b[^.!?\n]*)",
                              re.IGNORECASE)
_NOT_THE_THING = frozenset("actually the that this one was were paid personal private leave forget skip out off not for "
                           "claim mine don't add include put scratch it them wait nah naw nope client boss company "
                           "promoter colleague organiser organizer already bought with and customer customers host hosts "
                           "team organisers organizers partner department office employer they them".split())

# what an expense was in the currency it was paid in, in brackets beside the amount claimed, and nothing else: "(85
# reais)", "(R$85)", "(that was 85 reais converted)" (never a breakdown: "(incl 40 usd parking)", "(129 usd per night)")
ORIGINAL_ASIDE = re.compile(r"\(\s*(?:(?:that|it)\s+was\s+|was\s+|paid\s+|originally\s+|orig\.?\s+|=\s*|≈\s*|~\s*|approx\.?\s*)?"
                            r"(?:[A-Za-z]{0,3}[$€£¥]\s?|[A-Z]{3}\s?)?\d[\d.,]*\s*(?:[^\W\d_]{1,10}\.?)?(?:\s+(?:converted|in\s+cash|"
                            r"on\s+(?:my\s+)?card))?\s*\)", re.IGNORECASE)
# who else may have paid, named by a pronoun: "wait no, they paid that"
_SOMEONE = frozenset("they he she someone somebody".split())


def taken_back_segments(message: str) -> list[tuple[int, int]]:
    """Spans of take-backs said right after the expense they name again (by a word of it: "that cab" after "cab tae
    BER 41"); read as "scratch that". One that names nothing told just before is left as it is (then asked)."""
    out = []
    for m in [*_TAKE_BACK.finditer(message), *_SORRY_TAKE_BACK.finditer(message)]:
        seg = m.group("seg")
        chunks = re.split(r"[,;]|\band\b|\.\s|\s[-–—]\s", message[:m.start()])
        before, earlier = chunks[-1].lower(), " ".join(chunks[:-1]).lower()
        if not re.search(r"\d", before):
            continue  # nothing priced just before: not an expense told and taken back
        named = re.split(r"\b(?:so\s+)?(?:only|just)\b", seg, maxsplit=1, flags=re.IGNORECASE)[0]  # ("…, so only the lunch")
        said = {w for w in re.findall(r"[^\W\d_]{3,}", named.lower())} - _NOT_THE_THING
        if said & set(re.findall(r"[^\W\d_]{3,}", earlier)):
            continue  # "dinner 84 and a taxi 30 back from dinner - no, the dinner was paid …": which one? (asked)
        if said & set(re.findall(r"[^\W\d_]{3,}", before)) or (
                not said - _SOMEONE and not re.search(r"\d", earlier) and re.search(
                    r"\b(?:paid|pagó|payé|bezahlt|pagato)\s+(?:for\s+)?(?:that|it)\W*$", seg, re.IGNORECASE)):
            out.append((m.start("seg"), m.end("seg")))  # "… 650 Kč.. wait no, they paid that": the thing just told
    return sorted(set(out))


# "Monday 23", "Tuesday the 24th": a weekday and the day of the month it fell on (never a price: "monday 23 eur"; the
# sign before the next figure is that figure's: "monday 9 £25.00")
_WEEKDAY_AND_DAY = re.compile(r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|thurs|thur|thu|"
                              r"fri|sat|sun)\.?,?\s+(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\b(?![.,]\d)(?!\s*(?:€(?!\s?\d)|eur|euros?|"
                              r"sek|kr|nok|dkk|chf|gbp|usd|pln|zł|czk|kč|yen|jpy|cad|[$£¥](?!\s?\d)))(?!\.?\s*(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|"
                              r"oct|nov|dec)[a-z]*\b)(?![./-]\d)", re.IGNORECASE)


def weekdays_with_their_day(text: str, today: date) -> list[tuple[int, int, date | None]]:
    """(start, end, day) of each weekday said with the day of the month it fell on ("Monday 23" told on 5 Dec is 23
    Nov, a Monday), within the last month, when it heads what follows ("Now Monday 23, in kronor: …"; "the 24th",
    "23rd" are days already); "lunch tue 28" is a price, "Tue 10:20" a time, "mon 3 nts" a count. A day of the
    month that was not that weekday in the last month ("monday 17 the flight 240" told on Friday 20) is None: which
    day was meant is asked, and the number is never a price."""
    out = []
    for m in _WEEKDAY_AND_DAY.finditer(text):
        said = m.group(0)
        heads = re.search(r"(?:^|[.!?;:\n(]|\b(?:now|on|then|so|and|also))\W*$", text[:m.start()], re.IGNORECASE) and \
            re.match(r"\s*[,:]\s+(?!\d)|\s+(?:the|a|an|my|our|we|i)\s+[^\W\d_]", text[m.end():], re.IGNORECASE)
        heads = heads or (re.search(r"\b(?:from|since|between|trip\s+was|(?:i|we)\s+(?:was|were)\s+(?:there|away|in\s+[^\W\d_]+))\s+$",
                                    text[:m.start()], re.IGNORECASE) and re.match(
            r"\s*(?:until|till|to|through|thru|and|-|–)\s", text[m.end():], re.IGNORECASE)) or (re.search(
            r"\b(?:until|till|through|thru)\s+$", text[:m.start()], re.IGNORECASE) and re.search(
                r"\b(?:from|since|between)\s+(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s+\d{1,2}\b[^.;!?]{0,12}$", text[:m.start()],
                re.IGNORECASE))  # "from Monday 9 until Wednesday 11": both ends of the trip
        weekday = next(n for n, name in enumerate(_ENGLISH_DAYS) if name.startswith(m.group(1).lower()[:3]))
        fell = next((today - timedelta(days=back) for back in range(0, 32) if (today - timedelta(days=back)).day == int(
            m.group(2)) and (today - timedelta(days=back)).weekday() == weekday), None)
        skipped = re.search(r"\d(?:st|nd|rd|th)$|\bthe\s+\d", said, re.IGNORECASE) or re.match(
            r"\s*(?::\d|nights?|nts?|nites?|x\b|days?)", text[m.end():], re.IGNORECASE) or re.search(
            r"\b(?:last|this|next|past)\s+$", text[:m.start()], re.IGNORECASE)
        heads = heads or (_told_as_the_day(text, m) and fell is not None and (today - fell).days <= 14)  # (further back,
        # "breakfast on saturday 7 was 12,50" told on 3 Dec may be the latest Saturday at 7: read as before, or asked)
        if fell is None and not skipped and 1 <= int(m.group(2)) <= 31 and (
                heads and re.match(r"\s+(?:the|a|an|my|our)\s+[^\W\d_]", text[m.end():], re.IGNORECASE) or (
                    re.search(r"(?:^|[.!?;:\n(])\W*$", text[:m.start()]) and re.match(
                        r"\s*[,:\-–]?\s*(?!(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b)[^\W\d_]", text[m.end():], re.IGNORECASE)
                    and re.search(r"\d", text[m.end():]))):
            # ("monday 17 the flight 240", "monday 17: flight 240", "monday 17 flight 240" told on Friday 20: a day it
            # was not, or a price?)
            out.append((m.start(), m.end(), None))
            continue
        # ("The first things: monday 16 the flight …": the day heads the words after it too)
        if not heads or skipped or fell is None:
            continue  # "lunch tue 28", "Tue 10:20", "mon 3 nts": a price, a time or a count beside the weekday
        out.append((m.start(), m.end(), fell))
    return out


def _told_as_the_day(text: str, m: re.Match[str]) -> bool:
    """"the flight on monday 9 was 214,60 €", "taxi on wednesday 11, 20 eur", "It was wednesday 11, from the hotel …":
    the weekday said as the day something happened, its number the day of the month: after "on" or "of" with a price
    told elsewhere in the message (with its currency or its cents), or as the answer "it was …". Never when what follows
    makes the number an hour or a count ("monday 9 in the morning", "friday 20 for 2", "saturday 21 and 30 …")."""
    before, after = text[:m.start()], text[m.end():]
    if not re.match(r"\s*(?:$|[,;:.!?)–-]|[€$£¥]\s?\d|\s(?:was|were|is|came|cost|costs|i|we|the|a|an|my|our)\b)", after,
                    re.IGNORECASE):
        return False
    if re.match(r"\s*[,;:–-]?\s*(?:in\s+the\s+(?:morning|evening|afternoon)|at\s+night|a\.?m\b|p\.?m\b|o'?clock|h\b|"
                r"(?:people|persons|pax|guests|of\s+us)\b)", after, re.IGNORECASE):
        return False
    if re.search(r"(?:^|[.!?\n]|\b(?:it|that))\s*(?:was|is|it'?s|it’s)\s+(?:on\s+)?$", before, re.IGNORECASE) and not re.search(
            r"\d", before):
        return True  # "It was wednesday 11, from the hotel to the gare du Midi": which day, answered
    rest = before + " " + " " * (m.end() - m.start()) + after
    # (with no other figure in the message the number is no price either: "delete the lunch of tuesday 10")
    return bool(re.search(r"\b(?:on|of)\s+$", before, re.IGNORECASE)) and bool(_PRICE_TOLD.search(rest) or not re.search(
        r"\d", rest))


# a price as people write it with its currency or its cents: "214,60 €", "€ 89", "20 eur", "79.40"
_PRICE_TOLD = re.compile(r"[€$£]\s?\d|\d\s?(?:€|\$|£|eur\b|euros?\b|chf\b|gbp\b|usd\b|sek\b|nok\b|dkk\b|pln\b|czk\b|"
                         r"zł|kr\b|kč)|\d[.,]\d\d\b", re.IGNORECASE)


def weekday_not_that_day(said: str, today: date) -> str | None:
    """What is wrong with a weekday said with a day of the month it was not ("monday 17", told on Friday 20 November:
    "Monday was the 16th, and the 17th was a Tuesday"), or None."""
    m = _WEEKDAY_AND_DAY.fullmatch(said.strip())
    if m is None:
        return None
    weekday = next(n for n, name in enumerate(_ENGLISH_DAYS) if name.startswith(m.group(1).lower()[:3]))
    last = next(today - timedelta(days=back) for back in range(7) if (today - timedelta(days=back)).weekday() == weekday)
    told = next((today - timedelta(days=back) for back in range(32) if (today - timedelta(days=back)).day == int(
        m.group(2))), None)
    if told is None:
        return None
    return (f"{_ENGLISH_DAYS[weekday].capitalize()} was the {_ordinal(last.day)}, and the {_ordinal(told.day)} was a "
            f"{_ENGLISH_DAYS[told.weekday()].capitalize()}")


_WEEKDAY_AFTER = re.compile(r"\s*\(\s*(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s*\)", re.IGNORECASE)
_WEEKDAY_BEFORE = re.compile(r"\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s*$", re.IGNORECASE)


def slashed_by_weekday(text: str, start: int, end: int, today: date) -> tuple[bool, date | None]:
    """A day written "12/9" with the weekday it fell on beside it ("12/9 (Wed)", "Wednesday 2/12"): (True, the one
    reading of day and month, either order, in the last half year that fell on that weekday, or None when neither or both
    did); (False, None) when no weekday is beside it."""
    said = _WEEKDAY_AFTER.match(text, end) or _WEEKDAY_BEFORE.search(text[:start])
    parts = re.fullmatch(r"\s*(\d{1,2})/(\d{1,2})\s*", text[start:end])
    if said is None or parts is None:
        return False, None
    weekday = next(n for n, name in enumerate(_ENGLISH_DAYS) if name.startswith(said.group(1).lower()))
    readings = set()
    for day, month in ((int(parts.group(1)), int(parts.group(2))), (int(parts.group(2)), int(parts.group(1)))):
        try:
            guess = date(today.year, month, day)
        except ValueError:
            continue
        guess = guess if guess <= today else guess.replace(year=today.year - 1)
        if guess.weekday() == weekday and (today - guess).days <= 183:  # (a claim's days are of the last months)
            readings.add(guess)
    return True, (readings.pop() if len(readings) == 1 else None)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


@functools.cache
def days_abbreviated_abroad() -> dict[str, str]:
    """Other languages' short day names ("Mo.", "Di.", "mer.", "tors"; Babel's CLDR abbreviated forms), each as the
    English day; a form two languages give different days, or that is a common English word ("So.", "Do.", "man"),
    is none."""
    from babel.dates import get_day_names

    from registries.currencies import english_frequency

    seen: dict[str, set[str]] = {}
    for locale in _CALENDAR_LOCALES:
        for index, name in get_day_names("abbreviated", locale=locale).items():
            seen.setdefault(name.lower().rstrip("."), set()).add(_ENGLISH_DAYS[index])
    return {form: days.pop() for form, days in seen.items() if len(days) == 1 and english_frequency(form) < 1e-4 and
            form not in {d[:3] for d in _ENGLISH_DAYS} | {m[:3] for m in _ENGLISH_MONTHS} | {"man", "mar", "tor", "dim"}}


# two words joined by a hyphen, each perhaps a day of another language ("2 nuits mardi-mercredi")
_DAY_PAIR = re.compile(r"(?<![\w-])([^\W\d_]{3,})-([^\W\d_]{3,})(?![\w-])")
def day_pairs_abroad(text: str, today: date) -> list[tuple[int, int, date]]:
    """(start, end, day) of each of two days of another language joined by a hyphen ("mardi-mercredi"): the latest
    such weekday up to ``today``."""
    out = []
    for m in _DAY_PAIR.finditer(text):
        days = [calendar_abroad().get(m.group(i).lower()) for i in (1, 2)]
        if all(d in _ENGLISH_DAYS for d in days):
            for i, english in zip((1, 2), days, strict=True):
                out.append((m.start(i), m.end(i), _latest(str(english), today)))
    return out


# another language's short day name before a dotted day and month: "pon. 6.07", "Di. 7.7."
_DAY_BEFORE_DOTTED = re.compile(r"(?<![\w.])([^\W\d_]{2,5})\.?,?\s+(?=(?:[12]\d|3[01]|0?[1-9])\.(?:1[0-2]|0?[1-9])\b)")


def days_before_dotted(text: str, today: date) -> list[tuple[int, int, date]]:
    """(start, end, day) of another language's short day name before a dotted day and month ("pon. 6.07"), when the
    latest such day and month up to ``today`` fell on that weekday."""
    out = []
    for m in _DAY_BEFORE_DOTTED.finditer(text):
        english = days_abbreviated_abroad().get(m.group(1).lower())
        dotted = re.match(r"(\d{1,2})\.(\d{1,2})\.?", text[m.end():])
        if english is None or m.group(1).isupper() or dotted is None:
            continue
        try:
            day = date(today.year, int(dotted.group(2)), int(dotted.group(1)))
        except ValueError:
            continue
        if day > today:
            day = day.replace(year=today.year - 1)
        if _ENGLISH_DAYS[day.weekday()] == english:
            out.append((m.start(1), m.end() + dotted.end(), day))
    return out


# what follows a day's short name that heads a line: its colon ("Mo: …", "Di.: …")
_HEADS = re.compile(r"\.?\s*:")
_HEADING_WORD = re.compile(r"(?:^|(?<=[.!?;\n]))\s*([^\W\d_]{2,6})(?=\.?\s*:)")


def _latest(english: str, today: date) -> date:
    """The latest day up to ``today`` that fell on the English weekday ``english``."""
    return today - timedelta(days=(today.weekday() - _ENGLISH_DAYS.index(english)) % 7)


def heading_days(text: str, today: date) -> list[tuple[int, int, date]]:
    """(start, end, day) of each other language's short day name heading a sentence or a line ("Mo: ICE … Di: lunch"):
    the latest such weekday up to ``today``."""
    out = []
    for start, end, english in _heading_spans(text):
        out.append((start, end, _latest(english, today)))
    return out


def _heading_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, English day) of the short day names heading lines, when two or more days are told one after the
    other ("Mo: … Di: …"): one alone may be a person's name ("Sam: lunch 12", "Dom:"), one in capitals a code ("PO:")."""
    out = []
    for m in _HEADING_WORD.finditer(text):
        english = days_abbreviated_abroad().get(m.group(1).lower())
        if english is not None and not m.group(1).isupper():
            out.append((m.start(1), m.end(1), english))
    return out if len({english for _s, _e, english in out}) >= 2 else []


# a short day name of another language leading a sentence, before what was bought: "Mo ICE Stuttgart-Zürich 129,90",
# "di taxi vom hotel zum kunden CHF 38.50"
_LEADING_SHORT_DAY = re.compile(r"(?:^|(?<=[.!?\n])\s*)([^\W\d_]{2,4})\.?\s+(?=([^\W\d_][\w'’-]*))")


def _leading_short_days(message: str) -> list[tuple[int, int]]:
    """The spans of German short day names heading a sentence before a carrier's code in capitals ("Mo ICE …"); never
    one in capitals ("DI", "MO": codes). Any other short day name heading a sentence is the audit's to ask about."""
    spans = []
    for m in _LEADING_SHORT_DAY.finditer(message):
        if m.group(1).lower() not in days_abbreviated_abroad() or m.group(1).isupper():
            continue
        sentence = re.split(r"[.!?\n]", message[m.end(1):], maxsplit=1)[0]
        if m.group(1).lower() in ("mo", "di", "do", "fr") and re.fullmatch(r"[A-Z]{2,4}", m.group(2)) and sentence:
            spans.append((m.start(1), m.end(1)))  # ("Mo ICE …"; never "Sam and I …", "Mi taxi …", "Po kolacji …": asked)
    return spans


@dataclass(frozen=True)
class Spelled:
    """The spelled-out text and, for each of its characters, the span of the original it stands for."""

    original: str
    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        if start >= end or not self.text:
            return start, end
        return self.starts[start], self.ends[end - 1]

    def original_quote(self, quote: str) -> str:
        """The user's own words for a quote of the spelled-out text (unchanged when it is not one)."""
        if self.text == self.original:
            return quote
        at = self.text.find(quote)
        if at < 0:
            return quote
        start, end = self.original_span(at, at + len(quote))
        return self.original[start:end]


# a day written year first, dotted or slashed ("2026.11.16.", "2026/12/02")
_YEAR_FIRST = re.compile(r"(?<![\d.,/])(?P<y>20\d\d)([./])(?P<m>1[0-2]|0[1-9]|[1-9])\2(?P<d>[12]\d|3[01]|0[1-9]|[1-9])"
                         r"(?P<end>\.?)(?![\d]|[.,]\d)")


# a question closed the Greek way, with ";" ("What do you think;", "How much is the total now;"): a question mark
_GREEK_QUESTION = re.compile(r"(?:^|(?<=[.!?;:])\s+|(?<=\n))(?:(?:and|so|ok|also)\s+)?(?:what|how|is|are|do|does|can|could|"
                             r"should|would|will|who|where|when|why|which|did|any|there\s+is|is\s+there)\b[^.;!?\n]{0,120}"
                             r"(?P<mark>;)(?=\s*$|\s+[A-Z])", re.IGNORECASE)


# punctuation a voice-dictation app writes out in words
_SPOKEN_MARKS = {"full stop": ".", "question mark": "?", "exclamation mark": "!", "exclamation point": "!",
                 "new line": ".", "new paragraph": "."}
_SPOKEN_MARK = re.compile(r"\s*\b(full\s+stop|question\s+mark|exclamation\s+(?:mark|point)|new\s+line|new\s+paragraph)\b",
                          re.IGNORECASE)


# a remark in brackets beside an expense, about the person, not the expense: "(don't judge)", "(just me, don't ask)"
REMARK_ASIDE = re.compile(r"\((?:(?:just|only)\s+me\W*)?(?:don'?t|do\s+not)\s+(?:judge(?:\s+me)?|ask|laugh)\W*\)|\((?:just|only)\s+me"
                          r"(?:\W+(?:don'?t|do\s+not)\s+(?:judge(?:\s+me)?|ask))?\W*\)|\((?:i\s+know|yes\s+really|long\s+story|"
                          r"lol|haha+|ugh+|sigh|oops)\W*\)", re.IGNORECASE)


# a row of a pasted card statement: its date first, its amount last, written as a debit ("24.11.2026  CAT CITY AIRPORT
# TRAIN WIEN  -14,90 EUR")
_DEBIT_ROW = re.compile(r"(?m)^[ \t]*\d{1,2}[./]\d{1,2}[./](?:20)?\d{2}\b[^\n]*?\s(?P<minus>[-−])\d{1,6}(?:[.,]\d{2})(?:\s*(?:EUR|€|"
                        r"USD|GBP|CHF|SEK|NOK|DKK|PLN|CZK|CAD))?[ \t]*$")


_NOT_A_DEBIT = re.compile(r"\b(?:credit\w*|gutschrift|storno\w*|erstattung|r[üu]ckerstattung|refund\w*|reversal|reversed|"
                         r"chargeback|returned|duplicate|minus|negative|avoir|remboursement|abono|devoluci[óo]n|rimborso)\b",
                         re.IGNORECASE)


def spell_out(message: str) -> Spelled:
    """``message`` with the shorthand of ``lexicon.CHAT_WORDS`` replaced by the words it stands for."""
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    cursor = 0
    taken_back = taken_back_segments(message)
    headed = {(start, end) for start, end, _english in _heading_spans(message)} | {
        (m.start(1), m.end(1)) for m in _DAY_BEFORE_DOTTED.finditer(message)
        if m.group(1).lower() in days_abbreviated_abroad() and not m.group(1).isupper()} | set(
        _leading_short_days(message))  # "pon. 6.07 PKP …", "di taxi vom hotel …"
    pairs = [(m.start(i), m.end(i), None) for m in _DAY_PAIR.finditer(message) if all(
        calendar_abroad().get(m.group(i).lower()) in _ENGLISH_DAYS for i in (1, 2)) for i in (1, 2)]  # "mardi-mercredi"
    from .values import SPACED_DOTTED_DAY

    pairs += [(m.start(), m.end(), re.sub(r"\s", "", m.group(0))) for m in re.finditer(SPACED_DOTTED_DAY, message)]  # "9. 11."
    pairs += [(m.start(), m.end(), f"{m.group('d')}.{m.group('m')}.{m.group('y')}{' ' if m.group('end') else ''}")
              for m in _YEAR_FIRST.finditer(message)]  # "2026.11.16." read as "16.11.2026 " (as long: positions hold)
    pairs += [(m.start("mark"), m.end("mark"), "?") for m in _GREEK_QUESTION.finditer(message)]  # "What do you think;"
    pairs += [(m.start("er"), m.end("er"), "st") for m in _FIRST_OF_FRENCH.finditer(message) if (m.group("le") and not (
        m.group("month") and (m.group("month").lower() in lexicon.CATEGORY_WORDS or m.group("month").lower() in _FIRST_OF_A_KIND))) or (
        m.group("month") and (calendar_abroad().get(m.group("month").lower()) in _MONTHS_EN
                              or m.group("month").lower() in _MONTHS_EN))]  # "le 1er", "1er déc"
    pairs += [(m.start(), m.end(), " " * (m.end() - m.start())) for m in REMARK_ASIDE.finditer(message)]  # "(don't judge)"
    debits = list(_DEBIT_ROW.finditer(message))
    rows = re.findall(r"(?m)^[ \t]*\d{1,2}[./]\d{1,2}[./](?:20)?\d{2}\b", message)
    if len(debits) >= 2 and len(debits) == len(rows) and not re.search(r"(?:^|\s)\+\s?\d", message) and not _NOT_A_DEBIT.search(
            message):  # a card statement's rows, every one a debit (never a credit, a refund, or signs the user explains)
        pairs += [(m.start("minus"), m.end("minus"), " ") for m in debits]  # ("-14,90 EUR": paid, never negative)
    pairs += [(m.start(), m.end(), _SPOKEN_MARKS[re.sub(r"\s+", " ", m.group(1).lower())])
              for m in _SPOKEN_MARK.finditer(message)]  # "… thirty two pounds full stop coffee …": dictated
    pieces = sorted([*((s, e, "scratch that") for s, e in taken_back), *pairs, *(
        (m.start(), m.end(), None) for m in _pieces().finditer(message)
        if not any(s <= m.start() < e for s, e in taken_back))])
    for start, end, whole in pieces:
        said = message[start:end].lower()
        word = whole or lexicon.CHAT_PHRASES.get(said) or lexicon.CHAT_WORDS.get(said)
        if word is None and (abroad := lexicon.WORDS_ABROAD.get(said) or calendar_abroad().get(said)) and abroad_meant(
                message, start, end):
            word = abroad
        if word is None and said.isdigit() and message[start - 1:start] == "#":
            word = "ref"  # "TIM HORTONS #4412": a store's or a receipt's number, never a price
        if word is None and (start, end) in headed:
            word = days_abbreviated_abroad()[said].capitalize()  # "Mo: ICE … Di: lunch …": a day heading what follows
        if word is None:
            continue
        for i in range(cursor, start):
            parts.append(message[i])
            starts.append(i)
            ends.append(i + 1)
        after_digit = end < len(message) and message[end].isdigit()
        replacement = word + (" " if after_digit else "")  # "ln2" → "line 2"
        parts.append(replacement)
        starts.extend([start] * len(replacement))
        ends.extend([end] * len(replacement))
        cursor = end
    for i in range(cursor, len(message)):
        parts.append(message[i])
        starts.append(i)
        ends.append(i + 1)
    return Spelled(message, "".join(parts), tuple(starts), tuple(ends))
