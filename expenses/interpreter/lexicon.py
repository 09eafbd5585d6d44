"""The words the local interpreter knows: categories, merchants, currencies, verbs, ordinals.

Plain data only. Matching is on lower-cased whole words; a few lists are also searched with
rapidfuzz for near-miss spellings of non-critical words (a category noun such as "restaurnt").
"""

from __future__ import annotations

import re

# --------------------------------------------------------------------------- categories

# word -> category; the first listed category wins when a clause names several (see PRIORITY)
CATEGORY_WORDS: dict[str, str] = {}
ABROAD_WORDS: set[str] = set()
for _category, _words in {
    "taxi": "taxi taxis cab cabs uber ubers lyft bolt freenow ride rides rideshare taxicab minicab chauffeur",
    "meals": "meal meals dinner dinners lunch lunches breakfast breakfasts brunch restaurant restaurants food "
             "coffee coffees cafe café snack snacks drinks supper catering sandwich sandwiches pizza burger burgers "
             "sushi salad bagel croissant pastry pastries bakery takeaway takeout groceries supermarket beer beers "
             "wine tea teas eat ate eating steak steaks steakhouse tapas noodles ramen bistro brasserie diner espresso "
             "broodje broodjes toastie toasties panini panino wrap wraps muffin muffins scone scones bacon bap baps butty "
             "butties kebab kebabs",
    "travel": "travel express flight flights flew plane airfare airline train trains rail railway ticket tickets bus coach "
              "ferry metro subway tram parking toll tolls mileage fuel petrol gas rental eurostar tube underground "
              "shuttle scooter diesel oyster travelcard s-bahn u-bahn sbahn ubahn fuelled fueled refuelled refueled "
              "eurocity shinkansen luas vaporetto",
    "hotel": "hotel hotels accommodation lodging room motel hostel airbnb stay night nights nite nites guesthouse "
             "guesthouses bnb ryokan",
    # the words people mix in from their own languages (French, Italian, German, Polish, Spanish)
    "meals_abroad": "dejeuner déjeuner dîner petit-dejeuner petit-déjeuner pranzo cena colazione mittagessen abendessen "
                    "frühstück fruhstuck obiad kolacja śniadanie sniadanie almuerzo desayuno lunsj middag middagen frokost frukost "
                    "aftensmad kawa kaffe kaffee koffie caffè souper jantar almoço almoco lanche refeição refeicao "
                    "comida cena ceny obiadu kolację kolacje večeře vecere oběd obed snídaně snidane ontbijt lunchen "
                    "avondeten middageten frokosten middagen lunchen frukosten kaffet lounas illallinen aamiainen "
                    "yemeği yemegi yemek kahvaltı kahvalti",  # (Turkish: "akşam yemeği", dinner)
    "travel_abroad": "volo voli vol flug zug treno tren pociąg pociag parcheggio essence benzina tog tåg vlak trein comboio "
                     "parkering parkeren parkovné estacionamento estacionamiento aparcamiento "
                     "pedaggio péage peage peaje maut paliwo tankowanie parkowanie "
                     "zugbillett zugticket bahnticket rückflug ruckflug hinflug",
    "hotel_abroad": "hôtel albergo pensione pensjonat hostal pousada",  # (their nights, "2 Nächte", are counts: NIGHTS; "Bar Notte" is no hotel)
    "other": "other misc miscellaneous conference registration visa supplies stationery sim roaming fee fees "
             "equipment gift museum admission entrance exhibition laundry wifi internet printing postage charger "
             "adapter summit deposit badge badges entry cable cables usb battery batteries tape headset headsets "
             "meetup meetups hackathon",
}.items():
    for _word in _words.split():
        CATEGORY_WORDS[_word] = _category.removesuffix("_abroad")
        if _category.endswith("_abroad"):
            ABROAD_WORDS.add(_word)  # read only as written: "Doce" is never "noce" misspelt

# names that are everyday words too, read as who was paid only as written with a capital ("Enterprise", not "enterprise")
CAPITALISED_ONLY = frozenset({"enterprise", "alamo", "via rail", "united"})

# trains named by their service, read only as written in capitals ("ICE muc-hh", never "ice cream")
TRAIN_SERVICES = frozenset("ICE AVE TGV Shinkansen".split())  # ("EC card", "gift for RJ": no trains)

# when several category words occur, the more specific one wins: "hotel taxi" is a taxi,
# "hotel breakfast" a meal (the policy counts it so), "train to the hotel" travel
PRIORITY = ("taxi", "meals", "travel", "hotel", "other")

# words that only make a category when nothing better is said ("ticket", "night", "fee")
WEAK_CATEGORY_WORDS = frozenset({"express", "eat", "ate", "eating", "ticket", "tickets", "night", "nights", "nite", "nites",
                                 "nuit", "nuits", "notte", "notti", "nacht", "nächte", "nachte", "noc", "noce", "nocy",
                                 "noche", "noches", "stay", "room", "fee", "fees", "ride", "entry",
                                 "rides", "gas", "drinks", "food"})

# the words that name an existing line by its category ("the hotel line", "the dinner"); other
# category words (parking, visa, coffee) only name a line through its merchant
REFERRING_WORDS: dict[str, frozenset[str]] = {
    "taxi": frozenset("taxi taxis cab cabs ride rides taxicab".split()),
    "hotel": frozenset("hotel hotels accommodation room stay lodging".split()),
    "meals": frozenset("meal meals dinner dinners lunch lunches breakfast brunch supper restaurant food "
                       # the meals named in the languages people mix in ("take out the Frühstück")
                       "frühstück fruhstuck mittagessen abendessen petit-déjeuner petit-dejeuner déjeuner dejeuner dîner "
                       "pranzo cena colazione desayuno almuerzo śniadanie sniadanie obiad kolacja jantar almoço almoco "
                       "ontbijt avondeten lunsj frokost frukost middag".split()),
    "travel": frozenset("travel ticket tickets transport fare".split()),
    "other": frozenset("other misc miscellaneous".split()),
}
# travel lines are told apart by what their merchant is: "the train" is not "the flight"
KIND_WORDS = {"rail": frozenset("train trains rail railway frecciarossa railjet".split()),
              "air": frozenset("flight flights plane airfare airline".split())}
MERCHANT_KINDS = {
    "rail": ("deutsche bahn", "bahn", "sncf", "eurostar", "trenitalia", "amtrak", "renfe", "öbb", "rail", "railway",
             "sbb", "ns international", "ouigo", "italo", "frecciarossa", "railjet", "tgv lyria"),
    "air": ("lufthansa", "ryanair", "easyjet", "klm", "air france", "british airways", "tap", "iberia", "air",
            "airlines", "airways", "wizz", "vueling", "swiss international"),
}

# well-known merchants -> (display name, category)
MERCHANTS: dict[str, tuple[str, str]] = {
    "thalys": ("Thalys", "travel"), "lner": ("LNER", "travel"), "gwr": ("GWR", "travel"), "sj": ("SJ", "travel"),
    "shell": ("Shell", "travel"), "esso": ("Esso", "travel"), "aral": ("Aral", "travel"), "omv": ("OMV", "travel"),
    "uber": ("Uber", "taxi"), "lyft": ("Lyft", "taxi"), "bolt": ("Bolt", "taxi"), "freenow": ("FreeNow", "taxi"),
    "deutsche bahn": ("Deutsche Bahn", "travel"), "sncf": ("SNCF", "travel"), "rer": ("RER", "travel"),
    "ratp": ("RATP", "travel"),
    "eurostar": ("Eurostar", "travel"), "trenitalia": ("Trenitalia", "travel"), "amtrak": ("Amtrak", "travel"),
    "renfe": ("Renfe", "travel"), "lufthansa": ("Lufthansa", "travel"), "lot": ("LOT", "travel"), "ryanair": ("Ryanair", "travel"),
    "easyjet": ("easyJet", "travel"), "klm": ("KLM", "travel"), "air france": ("Air France", "travel"),
    "british airways": ("British Airways", "travel"), "tap": ("TAP", "travel"),
    "iberia": ("Iberia", "travel"), "flixbus": ("FlixBus", "travel"), "sixt": ("Sixt", "travel"),
    "hertz": ("Hertz", "travel"), "avis": ("Avis", "travel"),
    "enterprise": ("Enterprise", "travel"), "alamo": ("Alamo", "travel"), "via rail": ("VIA Rail", "travel"),
    "airbnb": ("Airbnb", "hotel"), "marriott": ("Marriott", "hotel"), "hilton": ("Hilton", "hotel"),
    "ibis": ("Ibis", "hotel"), "ibis styles": ("Ibis Styles", "hotel"), "ibis budget": ("Ibis Budget", "hotel"),
    "avanti west coast": ("Avanti West Coast", "travel"), "avanti": ("Avanti", "travel"),
    "united airlines": ("United Airlines", "travel"), "united flight": ("United", "travel"), "pret a manger": ("Pret A Manger", "meals"), "novotel": ("Novotel", "hotel"), "hyatt": ("Hyatt", "hotel"),
    "holiday inn": ("Holiday Inn", "hotel"), "premier inn": ("Premier Inn", "hotel"),
    "motel one": ("Motel One", "hotel"), "radisson": ("Radisson", "hotel"),
    "starbucks": ("Starbucks", "meals"), "pret": ("Pret", "meals"), "nando's": ("Nando's", "meals"),
    "mcdonald's": ("McDonald's", "meals"), "vapiano": ("Vapiano", "meals"),
    "cabify": ("Cabify", "taxi"), "grab": ("Grab", "taxi"), "careem": ("Careem", "taxi"), "didi": ("DiDi", "taxi"),
    "free now": ("FreeNow", "taxi"), "heetch": ("Heetch", "taxi"), "blablacar": ("BlaBlaCar", "travel"),
    "ouigo": ("Ouigo", "travel"), "italo": ("Italo", "travel"), "sbb": ("SBB", "travel"), "öbb": ("ÖBB", "travel"),
    "eurowings": ("Eurowings", "travel"), "wizz air": ("Wizz Air", "travel"), "wizzair": ("Wizz Air", "travel"),
    "vueling": ("Vueling", "travel"), "norwegian": ("Norwegian", "travel"), "finnair": ("Finnair", "travel"),
    "aer lingus": ("Aer Lingus", "travel"), "transavia": ("Transavia", "travel"),
    "europcar": ("Europcar", "travel"), "travelodge": ("Travelodge", "hotel"), "mercure": ("Mercure", "hotel"),
    "sofitel": ("Sofitel", "hotel"), "pullman": ("Pullman", "hotel"), "best western": ("Best Western", "hotel"),
    "booking.com": ("Booking.com", "hotel"), "sheraton": ("Sheraton", "hotel"), "westin": ("Westin", "hotel"),
    "costa": ("Costa", "meals"), "burger king": ("Burger King", "meals"), "kfc": ("KFC", "meals"),
    "greggs": ("Greggs", "meals"), "maccas": ("McDonald's", "meals"), "chipotle": ("Chipotle", "meals"),
    "screwfix": ("Screwfix", "other"),
    "deliveroo": ("Deliveroo", "meals"), "uber eats": ("Uber Eats", "meals"), "ubereats": ("Uber Eats", "meals"),
    "wolt": ("Wolt", "meals"), "lieferando": ("Lieferando", "meals"), "just eat": ("Just Eat", "meals"),
    "five guys": ("Five Guys", "meals"), "wagamama": ("Wagamama", "meals"), "dunkin": ("Dunkin", "meals"),
    "tim hortons": ("Tim Hortons", "meals"), "lidl": ("Lidl", "meals"), "aldi": ("Aldi", "meals"),
    "tesco": ("Tesco", "meals"), "rewe": ("REWE", "meals"), "carrefour": ("Carrefour", "meals"),
    # carriers and chains people name without a kind word: rail, coach and ferry lines of Europe; restaurant chains
    "regiojet": ("RegioJet", "travel"), "railjet": ("Railjet", "travel"), "frecciarossa": ("Frecciarossa", "travel"),
    "italo treno": ("Italo", "travel"), "westbahn": ("WESTbahn", "travel"),
    "viking line": ("Viking Line", "travel"), "tallink": ("Tallink", "travel"), "silja line": ("Silja Line", "travel"),
    "stena line": ("Stena Line", "travel"), "dfds": ("DFDS", "travel"), "color line": ("Color Line", "travel"),
    "finnlines": ("Finnlines", "travel"), "p&o ferries": ("P&O Ferries", "travel"), "brittany ferries": ("Brittany Ferries", "travel"),
    "irish ferries": ("Irish Ferries", "travel"), "irish rail": ("Irish Rail", "travel"),
    "iarnród éireann": ("Irish Rail", "travel"), "bus éireann": ("Bus Éireann", "travel"),
    "bus eireann": ("Bus Éireann", "travel"), "scotrail": ("ScotRail", "travel"), "pkp intercity": ("PKP Intercity", "travel"), "vy": ("Vy", "travel"),
    "flytoget": ("Flytoget", "travel"), "arlanda express": ("Arlanda Express", "travel"), "aircoach": ("Aircoach", "travel"),
    "sncb": ("SNCB", "travel"), "nmbs": ("NMBS", "travel"), "cfl": ("CFL", "travel"), "aegean": ("Aegean", "travel"),
    "lot polish airlines": ("LOT Polish Airlines", "travel"), "delta air lines": ("Delta Air Lines", "travel"), "delta airlines": ("Delta Air Lines", "travel"),
    "american airlines": ("American Airlines", "travel"), "jetblue": ("JetBlue", "travel"),
    "air canada": ("Air Canada", "travel"), "brussels airlines": ("Brussels Airlines", "travel"),
    "turkish airlines": ("Turkish Airlines", "travel"), "austrian airlines": ("Austrian Airlines", "travel"),
    "interparking": ("Interparking", "travel"), "apcoa": ("APCOA", "travel"), "q-park": ("Q-Park", "travel"),
    "contipark": ("Contipark", "travel"),
    "sas": ("SAS", "travel"), "delta": ("Delta", "travel"), "united": ("United", "travel"), "ita airways": ("ITA Airways", "travel"),
    "tgv lyria": ("TGV Lyria", "travel"), "lyria": ("TGV Lyria", "travel"),
    "flybussen": ("Flybussen", "travel"), "orlen": ("Orlen", "travel"), "bp": ("BP", "travel"),
    "scandic": ("Scandic", "hotel"), "nh hotel": ("NH Hotel", "hotel"), "nh": ("NH", "hotel"), "shake shack": ("Shake Shack", "meals"),
    "citybox": ("Citybox", "hotel"), "heathrow express": ("Heathrow Express", "travel"),
    "gatwick express": ("Gatwick Express", "travel"), "stansted express": ("Stansted Express", "travel"),
    "block house": ("Block House", "meals"), "nordsee": ("Nordsee", "meals"), "vapiano's": ("Vapiano", "meals"),
}

# a hire paid for the days it ran, dated the day it started (as a stay is): "rental car sixt 7.12.-9.12. 187,60"
HIRE = re.compile(r"\b(?:rental|rent(?:ed)?\s+(?:a\s+)?car|car\s+hire|hire\s+car|mietwagen)\b", re.IGNORECASE)

# --------------------------------------------------------------------------- currencies

CURRENCY_SYMBOLS = {"€": "EUR", "$": "USD", "£": "GBP", "¥": "JPY"}
CURRENCY_WORDS = {
    "eur": "EUR", "euro": "EUR", "euros": "EUR", "usd": "USD", "dollar": "USD", "dollars": "USD", "bucks": "USD",
    "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "quid": "GBP", "sterling": "GBP", "chf": "CHF",
    "franc": "CHF", "francs": "CHF", "franken": "CHF", "stutz": "CHF", "jpy": "JPY", "yen": "JPY", "sek": "SEK", "nok": "NOK", "dkk": "DKK",
    "pln": "PLN", "zloty": "PLN", "zlotys": "PLN", "czk": "CZK", "koruna": "CZK", "cad": "CAD",
}
# a night, in English and in the languages people mix in ("2 Nächte", "2 nuits", "2 noce")
NIGHTS = (r"nights?|nites?|nts|nuits?|notte|notti|n[äa]chte|nacht|noce|noc|nocy|noches?|nachten|n[äa]tter|natt|n[æa]tter|"
          r"netter|noci|noites?|nat")
# after a number, these make it a count, not money: "2 nights", "3 people"
QUANTITY_UNITS = frozenset(
    "night nights nite nites nts nuit nuits notte notti nacht nächte nachte noc noce nocy noche noches nachten nätter natt "
    "nætter netter noci noite noites nat day days people ppl person persons pax guest guests ticket tickets ride rides hour hours km "
    "kilometre kilometres kilometer kilometers mile miles times item items line lines percent".split()
)

# --------------------------------------------------------------------------- ordinals

ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
}
# every word a number is said with ("one", "twenty", "hundred"): never a name, never what was bought
SPOKEN_NUMBERS = frozenset("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                           "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety "
                           "hundred thousand".split())
NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12,
}
LINE_NOUNS = r"(?:line|item|entry|row|expense|one)"

# --------------------------------------------------------------------------- verbs

VERBS: dict[str, tuple[str, ...]] = {
    "open": ("open", "start", "create", "begin", "set up", "setup", "make", "new", "opening", "starting", "creating"),
    "add": ("add", "put", "log", "record", "enter", "include", "plus", "throw in", "i spent", "we spent", "i paid",
            "we paid", "i had", "we had", "i took", "we took", "i got", "bought",
            "took", "grabbed", "had", "got", "paid", "spent", "caught", "expensed", "adding", "logging", "recording",
            "including"),
    "update": ("change", "set", "update", "correct", "fix", "adjust", "edit", "modify", "amend", "make", "move",
               "rename", "switch", "mark", "reclassify", "recategorise", "recategorize", "reduce", "increase",
               "lower", "raise", "bump", "reschedule", "redate", "changing", "updating", "correcting", "fixing",
               "adjusting", "amending"),
    "remove": ("remove", "delete", "drop", "take off", "take out", "get rid of", "strike", "erase", "scrap", "removing",
               "deleting", "dropping"),
    "submit": ("submit", "send", "file", "hand in", "turn in", "forward", "submitting", "sending"),
    "withdraw": ("withdraw", "cancel", "close", "discard", "abandon", "scrap", "delete", "retract", "withdrawing",
                 "cancelling", "canceling"),
}

# a few frequent slips of the action verbs themselves; anything else must be spelt right
VERB_TYPOS = {
    "chnage": "change", "cahnge": "change", "chagne": "change", "udpate": "update", "updaet": "update",
    "remvoe": "remove", "reomve": "remove", "delte": "delete", "deleet": "delete", "sumbit": "submit",
    "subimt": "submit", "submti": "submit", "withdarw": "withdraw", "withdrwa": "withdraw", "ad": "add",
}

# verbs of things the interpreter cannot do: a clause led by one is "not understood", never ignored
UNKNOWN_ACTION_VERBS = frozenset(
    "approve reject book reserve pay transfer email mail print export download upload attach reimburse refund "
    "copy duplicate merge split archive share schedule remind call order purchase invite".split()
)

# a greeting in the languages people write in, leading a message ("Bonjour, pouvez-vous …", "Moi, uusi claim …"): never a
# question (clauses.LEADING; not filler elsewhere: "Ciao Italia" is a name)
GREETINGS_ABROAD = ("bonjour bonsoir salut coucou hola buenas buongiorno buonasera ciao salve hallo moin servus grüezi "
                    "hej hei moi hoi olá oi ahoj cześć czesc goedemorgen goedemiddag goedenavond goeiemorgen "
                    "godmorgen")

# politeness and filler: ignored wherever they stand
FILLER = frozenset(
    "please pls plz plase pleese kindly thanks thank thx ty cheers hi hello hey ok okay alright so oh um uh er "
    "erm well great cool good morning afternoon evening dear assistant bot just quickly quick ugh argh meh hmm "
    "oops lol sigh phew perfeito perfetto parfait perfekt prima vale bueno obrigado obrigada gracias grazie merci "
    "danke diolch bye doei tschüss tschuss adiós adios dziękuję dziekuje dzięki dzieki děkuji dekuji tack takk kiitos "
    "bedankt gràcies efharisto ευχαριστώ teşekkürler tesekkurler 감사합니다 고맙습니다 ありがとう ありがとうございます 谢谢 "
    "спасибо".split()
)

# words for places in the languages people mix into their English ("lunch 17.11. fiera 18,50": at the fair): where,
# never who was paid
PLACE_NOUNS = frozenset("fiera feria messe salon kantine mensa bahnhof hbf gare stazione flughafen aeroporto aeropuerto "
                        "aéroport centro zentrum büro buero ufficio oficina bureau werk planta usine stabilimento dworzec".split())

# greetings in the languages people open an English message with: never who was paid ("Buongiorno, …")
GREETINGS = frozenset("buongiorno buonasera bonjour bonsoir hallo hola hej moin servus ciao salut grüezi gruezi "
                      "guten goedemorgen dzień dzien".split())

GENERIC_TITLE_WORDS = frozenset(
    "the a an my our of for and to in on at trip trips claim claims conference visit visits travel travels expense "
    "expenses offsite meeting meetings week team client clients business project q1 q2 q3 q4 summit workshop "
    "november december january february march april may june july august september october".split()
)

# single words for currencies no claim can be kept in: "a claim for Delhi in rupees" is refused, never EUR
OTHER_CURRENCY_WORDS = {
    "rupees": "INR", "rupee": "INR", "reais": "BRL", "real": "BRL", "pesos": "MXN", "peso": "MXN", "rand": "ZAR",
    "lira": "TRY", "liras": "TRY", "yuan": "CNY", "renminbi": "CNY", "won": "KRW", "dirhams": "AED", "dirham": "AED",
    "baht": "THB", "ringgit": "MYR", "shekels": "ILS", "shekel": "ILS", "roubles": "RUB", "rubles": "RUB",
    "forint": "HUF", "forints": "HUF", "lei": "RON", "dinars": "KWD", "riyals": "SAR", "riyal": "SAR",
}

# everyday words a fuzzy match must leave alone (they are one edit away from a category noun)
COMMON_WORDS = frozenset(
    "tax taxes text tail bus but bust busy hot hote note notes hole host most post room rooms mail meal mean "
    "meat real rail sail fail mall hall call tall toll tell well fuel full feel fee fees free tree three there "
    "here hear dinar diner inner winner lunar launch bunch munch punch brunch cab can cap car cat cafe care card "
    "train trail trial brain drain gain rain again stay star stop step ride rode wide side tide hide food good "
    "wood mood fool pool coach couch beach reach teach ticket pocket rocket night light right fight might sight "
    "eight flight slight weight visa vista misc fuel duel drinks drink think thing things office airport station "
    "home work client team dinner fine been mine dine wife wire wise tune cube bees beef".split()
)

# --------------------------------------------------------------------------- chat shorthand

# yesterday, today and the day before, in the languages people mix in ("ayer almuerzo 14", "Taxi gestern 8.80"); the
# audit reads them too (audit.py)
YESTERDAY_ABROAD = ("ayer", "gestern", "hier", "ieri", "wczoraj", "gisteren", "igår", "i går", "igar", "i gar", "včera",
                    "vcera", "ontem")
TODAY_ABROAD = ("hoy", "heute", "oggi", "dziś", "dzis", "dzisiaj", "vandaag", "idag", "i dag", "dnes", "hoje")
BEFORE_YESTERDAY_ABROAD = ("anteayer", "vorgestern", "avant-hier", "przedwczoraj", "eergisteren", "i förrgår", "i forgårs",
                           "l'altro ieri", "altroieri")

# what people type for a word, read as that word (positions are kept: see normalize.py); only tokens
# that are no everyday English word of their own
CHAT_WORDS = {
    "clm": "claim", "clms": "claims", "ln": "line", "lns": "lines", "s/b": "should be", "w/": "with",
    "w/o": "without", "rm": "remove", "del": "delete", "wdraw": "withdraw", "wdrw": "withdraw", "submt": "submit",
    "sbmt": "submit", "chg": "change", "chng": "change", "upd": "update", "ttl": "total", "tot": "total",
    "lmt": "limit", "amt": "amount", "sry": "sorry", "chkd": "checked", "dup": "duplicate", "dupe": "duplicate",
    "u": "you", "ur": "your", "tmrw": "tomorrow", "tmr": "tomorrow", "b4": "before", "htl": "hotel", "hotl": "hotel", "hotell": "hotel",
    "tx": "taxi", "flt": "flight", "flght": "flight", "bkfst": "breakfast", "brkfst": "breakfast",
    "bfast": "breakfast", "lnch": "lunch", "dnr": "dinner", "rtn": "return", "trn": "train", "pkg": "parking", "conf": "conference",
    "prkg": "parking", "n": "and", "abt": "about", "thru": "through", "wk": "week", "corr": "correction",
    "nts": "nights", "gr8": "great",
    # the trip's day told in words ("Right, day one, Monday. …", "Day two, Tuesday."): as "Day 1"
    **{f"day {word}": f"day {n}" for n, word in enumerate(("one", "two", "three", "four", "five", "six", "seven"), 1)},
    # a count of nights written short ("Hotel Tue-Wed 2n 318", "htl 3n 95 ea")
    **{f"{n}n": f"{n} nights" for n in range(2, 15)}, "1n": "1 night",
    # nights in the languages people mix into their English ("Motel One 2 notti 198,00", "2 nachten 2x 210")
    "notti": "nights", "notte": "night", "noches": "nights", "noche": "night", "nuits": "nights", "nuit": "night",
    "nachten": "nights", "netter": "nights", "noites": "nights", "nopti": "nights", "nocy": "nights",
    "nätter": "nights", "natter": "nights", "nætter": "nights", "noci": "nights", "noite": "night", "natt": "night",
    "nacht": "night", "nächte": "nights", "nachte": "nights", "nat": "night", "noc": "night", "nuitée": "night",
    "nuitées": "nights",
}

# a request's few words in the languages people mix into their English ("apri una nuova nota spese", "invia pure",
# "fjern den", "quanto fa il totale"): read as the English words they are, where they are no part of a name
# (normalize.abroad_meant)
WORDS_ABROAD = {
    "nuova": "new", "nuovo": "new", "neue": "new", "neuen": "new", "neues": "new", "nouvelle": "new", "nouveau": "new",
    "nueva": "new", "nuevo": "new", "nieuwe": "new", "nowa": "new", "nowe": "new", "nowy": "new", "nová": "new",
    "neuer": "new", "nuovi": "new", "novo": "new", "nova": "new", "nowej": "new", "nieuw": "new", "nový": "new",
    "nové": "new", "novou": "new", "uusi": "new", "nytt": "new",
    "waluta": "currency", "währung": "currency", "devise": "currency", "valuta": "currency", "moeda": "currency",
    "moneda": "currency", "měna": "currency", "titre": "title", "titolo": "title", "título": "title", "titulo": "title",
    "titel": "title", "tytuł": "title", "tytul": "title", "název": "title", "tittel": "title", "otsikko": "title",
    "nee": "no", "nej": "no", "och": "and", "und": "and", "ach": "oh", "oj": "oh", "åh": "oh",
    "inte": "not", "ikke": "not", "nicht": "not", "niet": "not", "não": "not", "nao": "not", "nie": "not",
    "var": "was", "war": "was", "foi": "was", "fue": "was", "był": "was", "była": "was", "było": "was", "byl": "was",
    "byla": "was", "bylo": "was", "era": "was", "eran": "were", "erano": "were", "waren": "were", "c'était": "was",
    "c’était": "was", "oli": "was", "olivat": "were", "skulle vært": "should be", "skulle vara": "should be",
    "skulle være": "should be", "sollte": "should be", "doveva essere": "should be", "devrait être": "should be",
    # "… 19,40 en niet 14,90", "… 21,60 et pas 18,60", "… 48,00 e non 52": "and not" in the languages people write in
    "en niet": "and not", "et pas": "and not", "et non": "and not", "e non": "and not", "y no": "and not",
    "und nicht": "and not", "og ikke": "and not", "och inte": "and not", "a ne": "and not", "i nie": "and not",
    "e não": "and not", "e nao": "and not", "eikä": "and not", "non": "not",
    "kostete": "cost", "kostade": "cost", "kostede": "cost", "kostte": "cost",
    # Swedish and Danish "last Friday": "kvittot är från i fredags", "taxa i mandags"
    **{f"i {day}s": f"last {english}" for day, english in (
        ("måndag", "monday"), ("tisdag", "tuesday"), ("onsdag", "wednesday"), ("torsdag", "thursday"), ("fredag", "friday"),
        ("lördag", "saturday"), ("söndag", "sunday"), ("mandag", "monday"), ("tirsdag", "tuesday"), ("lørdag", "saturday"),
        ("søndag", "sunday"))},
    "lägga till": "add", "lägg till": "add", "legg til": "add", "legge til": "add", "læg til": "add",
    "kosztował": "cost", "kosztowała": "cost", "kosztowało": "cost", "costava": "cost", "costó": "cost", "coûtait": "cost",
    "hinzufügen": "add", "toevoegen": "add", "dodaj": "add", "aggiungi": "add", "ajoute": "add", "ajouter": "add",
    "añade": "add", "agrega": "add", "tilføj": "add", "adicione": "add", "přidej": "add",
    "apri": "open", "aprire": "open", "eröffne": "open", "ouvre": "open", "ouvrir": "open", "abre": "open", "abrir": "open",
    "le": "the", "les": "the", "el": "the", "il": "the", "était": "was", "étaient": "were", "en fait": "actually", "en realidad": "actually", "eigentlich": "actually",
    "in realtà": "actually", "faktisk": "actually", "właściwie": "actually", "na verdade": "actually",
    "peux-tu": "can you", "pouvez-vous": "can you", "tu peux": "can you", "vous pouvez": "can you", "ouvre-moi": "open",
    "podes": "can you", "pode": "can you", "puedes": "can you", "puoi": "can you", "kannst du": "can you",
    "können sie": "can you", "możesz": "can you", "kan du": "can you", "kun je": "can you",
    "m'ouvrir": "open", "m'ouvre": "open", "une": "a", "eine": "a", "einen": "a", "una": "a", "crée": "open", "créer": "open", "créez": "open", "ouvrez": "open", "erstelle": "open", "erstellen": "open",
    "öffne": "open", "crea": "open", "creare": "open", "crear": "open", "otwórz": "open", "utwórz": "open",
    "oprette": "open", "opret": "open", "opprett": "open", "opprette": "open", "skapa": "open", "skapar": "open",
    "öppna": "open", "åbn": "open", "åbne": "open", "criar": "open", "crie": "open", "cria": "open", "abra": "open",
    "aanmaken": "open", "založ": "open", "založit": "open", "otevři": "open", "avaa": "open", "luo": "open",
    "invia": "submit", "inviare": "submit", "manda": "submit", "mandare": "submit", "einreichen": "submit",
    "abschicken": "submit", "envoie": "submit", "envoyer": "submit", "envía": "submit", "envia": "submit", "enviar": "submit",
    "wyślij": "submit", "wyslij": "submit", "indsend": "submit", "skicka": "submit",
    "soumettre": "submit", "soumets": "submit", "soumettez": "submit", "submete": "submit", "submeter": "submit",
    "submeta": "submit", "indienen": "submit", "indien": "submit", "insturen": "submit", "verstuur": "submit",
    "versturen": "submit", "odešli": "submit", "odeslat": "submit", "wysyłaj": "submit", "wysylaj": "submit",
    "wysłać": "submit", "send inn": "submit", "sende inn": "submit", "send ind": "submit", "skicka in": "submit", "inviala": "submit it",
    "invialo": "submit it", "mandala": "submit it", "envíala": "submit it", "enviala": "submit it",
    "elimina": "remove", "togli": "remove", "cancella": "remove", "löschen": "remove", "lösche": "remove", "entferne": "remove",
    "supprime": "remove", "supprimer": "remove", "borra": "remove", "quita": "remove", "usuń": "remove", "usun": "remove",
    "fjern": "remove", "slett": "remove", "ta bort": "remove", "verwijder": "remove",
    "totale": "total", "totaal": "total", "gesamt": "total", "insgesamt": "total", "summe": "total", "razem": "total",
    "suma": "total", "totalt": "total",
    # a take-back in the languages people mix in: "19,99 - ach nein, vergiss es", "laisse tomber", "lascia perdere"
    "vergiss es": "forget it", "vergiss das": "forget that", "vergeet het": "forget it", "vergeet dat": "forget that",
    "laat maar": "never mind", "oublie ça": "forget that", "oublie ca": "forget that", "laisse tomber": "never mind",
    "olvídalo": "forget it", "olvidalo": "forget it", "olvida eso": "forget that", "esquece isso": "forget that",
    "esqueça isso": "forget that", "lascia perdere": "never mind", "lascia stare": "never mind", "dimenticalo": "forget it",
    "zapomnij o tym": "forget that", "glöm det": "forget it", "glem det": "forget it",
    **{word: "yesterday" for word in YESTERDAY_ABROAD}, **{word: "today" for word in TODAY_ABROAD},
    **{word: "the day before yesterday" for word in BEFORE_YESTERDAY_ABROAD},
}

# "please" and "thanks", in English and in the languages people mix in ("…, NOK takk", "… porfa"): a regex alternation
PLEASE = (r"please|pls|plz|thanks|thank\s+you|thx|porfa|por\s+favor|bitte|danke|svp|stp|s'il\s+(?:te|vous)\s+pla[iî]t|merci|"
          r"per\s+favore|grazie|prosz[eę]|pros[ií]m|dzięki|takk|tack|tak|dank\s+je|alsjeblieft|graag|gracias|obrigad[oa]|"
          r"efharisto|dziękuję|dziekuje|děkuji|dekuji|teşekkürler|tesekkurler|감사합니다|고맙습니다|ありがとう(?:ございます)?|"
          r"谢谢|спасибо|ευχαριστώ")

# a claim called by its name in the languages people mix into their English ("nuova nota spese: …"), read as "claim"
CHAT_PHRASES = {
    phrase: "claim" for phrase in ("nota spese", "nota delle spese", "note de frais", "spesenabrechnung",
                                   "reisekostenabrechnung", "nota de gastos", "informe de gastos", "declaratie",
                                   "onkostennota", "onkostendeclaratie", "reiseregning", "reseräkning", "rejseafregning",
                                   "rozliczenie", "rozliczenie delegacji", "relatório de despesas", "abrechnung",
                                   "kostenabrechnung", "notes de frais", "nota de despesas", "note of expenses",
                                   "expense note", "expenses note", "udgiftsafregning", "udgiftsrapport",
                                   "udlægsafregning", "utleggsrefusjon", "reiseoppgjør", "utläggsredovisning",
                                   "kuluraportti", "matkalasku", "cestovní příkaz", "vyúčtování", "despesa nova",
                                   "nova despesa", "relatório de despesas novo", "declaração de despesas",
                                   "reiskostendeclaratie", "nota spese nuova", "note de frais nouvelle")
} | {phrase: "submit the claim" for phrase in ("soumettre la note", "soumettez la note", "envoyer la note", "soumets la note")
     } | {phrase: "new claim" for phrase in ("ny claim", "nyt claim", "nytt claim", "ny reseräkning", "ny rejseafregning",
                                        "ny reiseregning", "nytt krav", "ny udgiftsrapport")
     } | {phrase: "submit it" for phrase in ("invia pure", "manda pure", "vai pure", "schick es ab", "envoie-la", "wyślij to")
     } | {phrase: "remove it" for phrase in ("fjern den", "fjern det", "ta bort den", "ta bort det", "slett den", "slett det",
                                            "usuń to", "usun to", "lösch das", "lösche das", "toglilo", "eliminalo",
                                            "supprime-le", "supprime-la", "bórralo", "quítalo")}

MEALS = frozenset("breakfast brunch lunch dinner supper".split())  # which meal a meals line was
# the same meals in the languages people mix in: "the Frühstück" is the breakfast, never the dinner
MEALS_ABROAD = {**dict.fromkeys("frühstück fruhstuck petit-déjeuner petit-dejeuner colazione desayuno śniadanie sniadanie "
                                "ontbijt frokost frukost".split(), "breakfast"),
                **dict.fromkeys("mittagessen déjeuner dejeuner pranzo almuerzo obiad almoço almoco lunsj".split(), "lunch"),
                **dict.fromkeys("abendessen dîner cena kolacja jantar avondeten middag".split(), "dinner")}

# small words of the languages people mix in, never a misspelt kind of expense ("inte 214": not "inn")
FUNCTION_WORDS_ABROAD = frozenset("inte ikke nicht niet var war och und oder eller også auch aussi anche ook także też "
                                  "mit avec con com med bei chez från fra vom dem der die das den det het les des del "
                                  "dal nel sul pour para per por".split())

# "yes" and "convert it" in the languages people answer a conversion offer in ("ja passt, umrechnen", "ano, převeď to",
# "tak, przelicz", "si si convertili", "prima, doe maar", "D'accord pour la conversion"): regex alternations
YES_ABROAD = (r"ja|jo|joo|jep|jepp|ano|si|sì|sí|sim|oui|prima|perfekt|perfecto|perfeito|perfetto|parfait|d['’]accord|"
              r"claro|vale|klar|passt|va\s+bene|is\s+goed|dobře|dobrze|okej|okei|certo|genau|gerne|doe\s+maar|klart|"
              r"selvf[øo]lgelig|självklart|bien\s+s[uû]r|volontiers")  # (never "tak", "da", "bitte": also
# "thanks", "there", "please" in the languages around them; "si" and "prima" only count in an answer made of yes
# words alone: "si c'est le taux", "prima controllo il cambio" are read afresh)
CONVERT_ABROAD = (r"umrechn\w*|rechne\w*\s+(?:\w+\s+)?um|konvert\w*|omregn\w*|omr[äa]kn\w*|przelicz\w*|převe\w*|"
                  r"přepočít\w*|přepočet|conver[st]\w*|omreken\w*|reken\w*\s+(?:\w+\s+)?om|umwandeln|wechseln")
# the same doubts ("but", "not") in those languages: an answer holding one is read afresh, never taken as the yes
DOUBT_ABROAD = r"nie|nein|nicht|non|pas|niet|geen|inte|ikke|ne|ma|mais|aber|pero|però|mas|men|ale|jedoch"



# the meals a person tells apart by name: "Lunch was catered by the client" is not "a coffee and a bagel" (a "meal" or
# "the food" may be any of them)
MEAL_NAMES = frozenset("breakfast breakfasts brunch lunch lunches dinner dinners supper coffee coffees".split())


def meal_named_apart(said: str, told: list[str]) -> bool:
    """Does ``said`` name a meal by a name none of the ``told`` expenses has, each of which has a meal name of its
    own?"""
    names = set(re.findall(r"[^\W\d_]+", said.lower())) & MEAL_NAMES
    return bool(names) and bool(told) and all(
        (own := set(re.findall(r"[^\W\d_]+", t.lower())) & MEAL_NAMES) and not own & names for t in told)


# a thing of several, not said which: "one of the train tickets", "one of my taxis"
ONE_OF_THEM = re.compile(r"\bone\s+of\s+(?:the|my|our|those|these)\s+(?:\w+\s+)?(?:taxis|cabs|ubers|rides|tickets|trains|flights|"
                         r"buses|trams|metros|lunches|dinners|breakfasts|meals|coffees|hotels|nights|lines|fares|journeys|parkings|"
                         r"transfers|snacks)\b", re.IGNORECASE)

# words by which a price told after a take-back is of something more, not the price said again ("oops, I forgot the
# tip, 3", "no wait, also the wine, 12")
SOMETHING_MORE = (r"plus|also|another|forgot|forget|tip|extra|more|too|as\s+well|outbound|return|back|tax|fee|second|"
                  r"other")

# a figure told as a limit, not as an expense: "over 50 on the meal limit", "under the 180 cap"
LIMIT_TOLD = re.compile(r"\b(?:over|above|under|below|within|exceeded?|past|beyond)\s+(?:the\s+)?[€$£]?\d+(?:[.,]\d+)?\s*"
                        r"(?:[^\W\d_]+\s+){0,3}?(?:limit|cap|allowance|budget|maximum|max)\b", re.IGNORECASE)


# a stay's moments, which people write as one word and never name who was paid ("hampton inn 389.20 checkin wed",
# "they added the city tax at checkout")
STAY_MOMENTS = frozenset({"checkin", "checkout", "check-in", "check-out", "checkedin", "checkedout"})
