"""The scope classifier's vocabulary: what puts a request in a blocked domain.

Rules are data, so a reviewer can read exactly why a request was declined and a
deployment can audit the list. Three kinds of entries:

- ``Rule``: a regular expression that puts text in a domain, with the reason a
  person will read ("medication or dosing").
- ``BENIGN``: look-alikes ("river bank", "server health check", "wifi password")
  whose spans excuse any rule match they overlap.
- identifier detectors (in ``policy.py``): card numbers (Luhn-checked), US SSNs,
  IBANs and secrets written out, checked with python-stdnum so that an order
  number of 16 digits is not mistaken for a card.

This module holds the English entries; ``botpsy.safety.languages`` holds German,
French, Spanish, Italian and Portuguese ones with the same reasons, and ``RULES``,
``BENIGN`` and ``VOCABULARY`` (key words whose misspellings ``botpsy.safety.fuzzy``
reads as meant) gather all six.

Labelling convention (for eval sets): a request is in a domain when it asks
about or acts on one of the listed sub-areas, even if the action is only a note
or a reminder ("remind me to pay rent" is money, "remind me to take my pills" is
health), but scheduling a visit or an errand ("book a dentist appointment",
"call the bank", "a meeting at the bank on Tuesday") is not: a bank named as a place is
a place, while its accounts, balances, loans and charges are money, whoever is called
about them ("call my bank and dispute the charge" asks for money back). Looking up
a contact's number for yourself is not personal data; sharing it with someone else
is, and so are another person's home address, whereabouts, income and private
messages.
"""

from __future__ import annotations

import re

from botpsy.language import (
    CLOCK_WORDS,
    DAY_PARTS,
    MONTHS,
    MULTIPLIERS,
    NUMBER_WORDS,
    ONE_ARTICLES,
    RELATIVE_DAYS,
    WEEKDAYS,
    alternation,
    full_names,
)
from botpsy.safety.config import Domain
from botpsy.safety.languages import FLAGS as _FLAGS
from botpsy.safety.languages import (
    Rule,
    de,
    es,
    fr,
    it,
    not_for,
    party_secret,
    pt,
    seasoning_dose,
    visit,
)
from botpsy.safety.languages import rule as _rule

_CURRENCY = (
    r"dollars?|euros?|pounds?(?!\s+of\b)|bucks|quid|cents|yen|rupees|francs|pesos|kroner|"
    r"usd|eur|gbp|chf|btc|eth"
)
# Amounts written out: "fifty", "a hundred", "two thousand", "a couple of"
_NUMBER_WORD = alternation([*ONE_ARTICLES["en"], *NUMBER_WORDS["en"], *MULTIPLIERS["en"],
                            "couple of", "few"])
_AMOUNT = (
    r"[$€£¥]\s?\d[\d,.]*(?:\s?[km]\b)?|"
    # the symbol or code after or before the number: "50 €", "50€", "USD 50"
    r"\b\d[\d,.]*\s?(?:k\s)?(?:[$€£¥]|(?:" + _CURRENCY + r")\b)|"
    r"\b(?:usd|eur|gbp|chf)\s?\d|"
    r"\b(?:" + _NUMBER_WORD + r")(?:[\s-]+(?:and\s+)?(?:" + _NUMBER_WORD + r"))*\s+"
    r"(?:" + _CURRENCY + r")\b"
)
_BODY = (
    r"head|chest|stomach|back|knees?|throat|eyes?|ears?|skin|heart|legs?|arms?|tooth|teeth|"
    r"foot|feet|neck|shoulders?|wrists?|ankles?|hips?|lungs?|kidneys?|liver|belly|tummy|"
    r"joints?|muscles?|bones?|gums?|toes?|fingers?|nose|mouth|tongue|breasts?|groin|bladder|"
    r"elbows?|thumbs?|jaw|spine|ribs?|face|lips?|pelvis|abdomen|calf|calves|thighs?|brain|"
    r"bowels?|uterus|prostate|thyroid"
)
_FEEL = (
    r"hurts?|hurting|aches?|aching|pains?|sore|swollen|bleeding|itch(?:y|es|ing)?|numb|"
    r"burning|lump"
)
_CONDITIONS = (
    r"cancer(?:ous)?|malignant|tumou?rs?|diabetes|diabetic|covid(?:-19)?|coronavirus|"
    r"influenza|the flu|asthma|"
    r"hypertension|cholesterol|heart attack|pneumonia|bronchitis|stds?|stis?|hiv|hepatitis|"
    r"arthritis|migraines?|depression|depressed|anxiety attacks?|panic attacks?|adhd|dementia|"
    r"alzheimer'?s|eczema|psoriasis|allerg(?:y|ies|ic)|concussion|fractured?|sprain(?:ed)?|"
    r"strep throat|utis?|urinary tract|pregnan(?:t|cy)|miscarriage|ovulat\w*|menstrua\w*|"
    r"insomnia|eating disorder|anorexia|bulimia|schizophreni\w*|bipolar|ptsd|infections?|"
    r"infected|mental health|std test|shingles|measles|mumps|chicken ?pox|herpes|chlamydia|"
    r"gonorrh?o?ea|syphilis|hpv|tuberculosis|malaria|lyme disease|sepsis|hernia|ulcers?|"
    r"kidney stones?|gallstones?|celiac|coeliac|ibs|crohn'?s|obesity|osteoporosis|scoliosis|"
    r"glaucoma|cataracts?|tinnitus|vertigo|anaphyla\w+|dehydration|hypothermia|heat ?stroke|"
    r"sunburn|acne|rosacea|warts?|fibromyalgia|endometriosis|pcos|menopause|"
    r"erectile dysfunction|incontinence|ha?emorrhoids|jaundice|melanoma|lymphoma|carcinoma|"
    r"seizures?|epilep\w+|parkinson'?s|autism|autistic|ocd|thyroid|gout|lupus|stroke"
)
_SYMPTOMS = (
    r"symptoms?|fever|feverish|nausea|nauseous|vomit(?:ing|ed)?|throwing up|diarrh?o?ea|"
    r"constipat\w+|cough(?:s|ing|ed)?(?! up)|tiredness|fatigue|exhaustion|lethargy|"
    r"sore throat|runny nose|dizz(?:y|iness)|chest pains?|"
    r"shortness of breath|short of breath|can'?t breathe|rash(?:es)?|itchy|swollen|swelling|"
    r"bruis(?:e|ed|es|ing)|cramps?|palpitations|blurry vision|numbness|tingling|headaches?|"
    r"stomach ?aches?|toothaches?|backaches?|earaches?"
)
_DRUGS = (
    r"ibuprofen|advil|motrin|paracetamol|acetaminophen|tylenol|panadol|aspirin|naproxen|aleve|"
    r"codeine|tramadol|oxycodone|morphine|fentanyl|opioids?|antibiotics?|amoxicillin|"
    r"penicillin|azithromycin|insulin|metformin|statins?|lipitor|prozac|zoloft|sertraline|"
    r"fluoxetine|xanax|valium|benzodiazepines?|adderall|ritalin|melatonin|antihistamines?|"
    r"benadryl|zyrtec|claritin|steroids?|prednisone|antidepressants?|pain ?killers?|"
    r"sleeping pills?|sleep(?:ing)? aids?|birth control|contracepti\w+|viagra|ozempic|wegovy|semaglutide|"
    r"vaccines?|vaccinat\w+|inhalers?|epipen|chemo(?:therapy)?|"
    r"medications?|medicines?|meds|pills?|tablets? of|take (?:\w+ )?tablets?|capsules?|"
    r"prescriptions?|prescribed|"
    r"pharmacist|drug interactions?|over[- ]the[- ]counter|side[- ]effects?|"
    r"(?:flu|covid|tetanus|booster|measles|allergy) (?:shots?|jabs?)|"
    # supplements are dosed like drugs
    r"vitamins?(?: [a-k]\d{0,2})?|(?:dietary |vitamin |protein |iron )?supplements|"
    r"dietary supplement|multivitamins?|iron (?:pills|tablets)|zinc|magnesium|omega-?3s?|"
    r"fish oil|probiotics?|creatine|st\.? john'?s wort|herbal remed\w+"
)
_PRIVATE_FIELD = (
    r"(?:new |home |cell |mobile |private |personal |current |work |phone )?"
    r"(?:home address|address|phone(?: number)?|mobile(?: number)?|cell(?: number)?|number|"
    r"date of birth|dob|salary|location|whereabouts|medical \w+|health \w+|diagnosis|ssn|"
    r"social security(?: number)?|passport(?: number)?|contact (?:details|info|card)|"
    r"personal (?:details|info|information|data)|private (?:details|info|information|data|"
    r"photos?|messages?|pictures?))"
)

# Another person's possessive ("Dan's", "her"), not a contraction ("what's", "it's").
_OTHERS = (
    r"\b(?!(?:it|that|what|let|there|here|who|where|how|he|she|everything|nothing)'s)"
    r"(?:[a-z]+'s|[a-z]+s'|his|her|their)"
)
# People a user may be tempted to look into.
_RELATION = (
    r"(?:neighbou?rs?|ex|exes|boss|coworkers?|co-workers?|colleagues?|landlord|tenants?|"
    r"babysitter|nanny|date|partner|wife|husband|girlfriend|boyfriend|roommates?|"
    r"employees?|candidates?|this (?:guy|woman|man|person)|someone|somebody)"
)
# A person to be located: "my ex", "the neighbour", "Jonas" (a capitalised name).
_PERSON = (
    rf"(?:my |the |our |his |her |their )?(?:new |old |former )?"
    rf"(?:{_RELATION}(?: (?-i:[A-Z][a-z]+))?|(?-i:[A-Z][a-z]+))"
)

# A bank as a place, one word of its name allowed ("the local bank", "my Barclays bank"),
# but not a bank's accounts, cards or money ("at my bank account"), nor a visit made to
# open an account or to withdraw.
_BANK_PLACE = (
    r"(?:the |my |our |a |your )?(?:\w+ )?bank\b(?! (?:accounts?|transfers?|balances?|"
    r"statements?|cards?|details|loans?|fees?|charges?|codes?|numbers?|transactions?|app|"
    r"logins?|passwords?|pins?|deposits?)\b)"
    + not_for(r"to|and|so i can|in order to",
              r"open|close|withdraw|deposit|cash|take out|apply for|sign")
)
# What one books, attends or is invited to: "an appointment at the bank".
_EVENTS = (
    r"appointments?|appts?|meetings?|meet-?ups?|visits?|calls?|errands?|trips?|consultations?|interviews?|events?|"
    r"receptions?|seminars?|workshops?|sessions?|lunch|dinner|breakfast|coffee|drinks|"
    r"shifts?|talks?|presentations?|part(?:y|ies)|open days?|open house|tours?|training|"
    r"info(?:rmation)? (?:sessions?|evenings?)"
)
# The time words an appointment names before the place: "a meeting on Tuesday at 10 at the bank"
_TIMES = (
    r"on|at|this|next|the|of|in|week|o'clock|"
    + alternation({*RELATIVE_DAYS["en"], *DAY_PARTS["en"], *CLOCK_WORDS["en"],
                   *full_names(WEEKDAYS), *full_names(MONTHS)}) + "|"
    r"\d{1,2}(?:[:.]\d\d)?(?:\s?[ap]\.?m\.?)?|\d{1,2}(?:st|nd|rd|th)"
)

# Each alternative below carries a comment naming the class of request it covers;
# the ``reason`` of its rule is what a declined user reads.
_ENGLISH_RULES: tuple[Rule, ...] = (
    # --- money -------------------------------------------------------------
    _rule(
        Domain.money, "sending or transferring money",
        # a transfer verb followed by an amount or by money itself: "send Bob 50 bucks"
        rf"\b(?:wire|transfer|send|move|lend|loan|pay|remit|venmo|zelle|donate|tip|top up|"
        rf"owes?|owed|borrow)\b[^.?!\n]{{0,40}}?"
        rf"(?:{_AMOUNT}|\bmoney\b|\bfunds\b|\bcash\b)",
        # the kinds of transfer by name: "a SEPA transfer", "bank transfer"
        r"\b(?:wire|bank|money|funds?|international|sepa|swift|interbank) transfers?\b",
        # "wire it to him": wiring is always money
        r"\bwire (?:it|them|the (?:money|amount|payment|funds))\b",
        # "wire 500 to my landlord": a bare amount wired to someone is money too
        r"\bwire\s+\d[\d,.]*k?\s+(?:to|for)\b",
        # taking cash out or paying it in: "withdraw 300 euros", "deposit the cheque"
        rf"\b(?:withdraw\w*|deposit\w*|take out|draw out)\b[^.?!\n]{{0,8}}?(?:{_AMOUNT})",
        r"\b(?:deposit|cash|pay in|paying in)\w* (?:a |the |this |that |my |his |her )?(?:\w+ )?"
        r"(?:cheques?|checks?)\b",
    ),
    _rule(
        Domain.money, "a payment",
        # paying in any form: "pay the fine", "payday", "repay the loan"
        r"\b(?:pay|pays|paying|paid|payments?|repay\w*|prepa(?:y|id)|payday|paycheck|payroll)\b",
        # payment services by name
        r"\b(?:paypal|venmo|zelle|cash ?app|apple pay|google pay|revolut|splitwise|monzo|n26|"
        r"klarna|afterpay|western union|moneygram|payoneer)\b",
        # money coming back or leaving by arrangement: refunds, debits, standing orders
        r"\b(?:refunds?|chargebacks?|direct debits?|standing orders?|reimburse\w*|"
        r"overdue (?:bill|invoice)s?|bills? payments?)\b",
        # contesting a charge is asking for money back, whoever is called to do it ("call my
        # bank and dispute the charge": the call is an errand, its purpose is not)
        r"\b(?:dispute|contest|challenge|reverse|query)(?:s|d|ing)? (?:a |an |the |this |that |my |"
        r"these |those )?(?:\w+ )?(?:charges?|transactions?|debits?|withdrawals?|payments?)\b",
    ),
    _rule(
        Domain.money, "a payment",
        # settling a debt or covering a bill: "settle what I owe", "cover my half of the rent"
        r"\bwhat (?:i|we) owe\b|\bi owe (?:\w+ )?(?:money|for|back)\b|"
        r"\bsettle (?:up|what|my debts?|our debts?|the (?:bill|debt|tab))\b",
        r"\b(?:cover|split|settle|clear|foot|pay off) (?:my |our |the |his |her |their )?"
        r"(?:half |share |part |portion )?(?:of )?(?:the )?(?:outstanding |overdue |unpaid )?"
        r"(?:rent|bills?|invoices?|tab|deposit|fees?|debts?|dinner bill)\b",
        # paying with a card: "buy it with my saved card"
        r"\b(?:with|using) (?:my|our) (?:saved |stored |credit |debit |visa |bank )?cards?\b",
        # chipping in an amount
        r"\bchip in (?:[$€£]?\d|for\b)",
    ),
    _rule(
        Domain.money, "banking",
        # money in or out of one's account: "left in my account", "20 from my account"
        r"\b(?:left|remaining|available|deposited|withdrawn?) (?:in|on|from) (?:my|our) "
        r"(?:\w+ )?account\b|\b\d[\d,.]*\b[^.?!\n]{0,30}?\bfrom (?:my|our) (?:\w+ )?account\b",
        # banks and bankers, the institution as such ("call the bank" is excused in BENIGN)
        r"\bbank(?:s|ing|er|ers)?\b",
        # accounts that hold money
        r"\b(?:checking|savings|brokerage|bank|current|joint) accounts?\b",
        # balances of money (not "work-life balance", excused in BENIGN)
        r"\b(?:my|account|bank|card|current|available|remaining) balance\b",
        r"\bbalance (?:sheet|transfer)s?\b",
        # statements and charges on an account or card
        r"\b(?:bank|card|credit card|visa|mastercard|amex|account|brokerage) statements?\b",
        r"\bcharges? on my (?:\w+ )?(?:card|account|statement|bill)\b",
        # one's finances as a whole
        r"\b(?:my|our) (?:finances|savings|debts?|net worth)\b",
        # credit, loans, cards, account identifiers and taxes
        r"\b(?:overdraft|mortgages?|loans?|credit scores?|credit limit|interest rates?|atms?|"
        r"routing numbers?|ibans?|swift codes?|sort codes?|account numbers?|cbu|cvu|clabe|"
        r"credit cards?|debit cards?|tax returns?|tax refunds?|my taxes|file (?:my )?taxes)\b",
    ),
    _rule(
        Domain.money, "income or salary",
        # one's own pay arriving or being counted: "has my salary arrived?"
        r"\b(?:my|our) (?:monthly |annual |net |gross )?(?:salary|salaries|wages?|income|"
        r"pay ?slips?|earnings)\b",
    ),
    _rule(
        Domain.money, "cryptocurrency",
        # coins, tokens and exchanges by name ("cryptography" is not crypto)
        r"\b(?:crypto(?:currenc(?:y|ies)|s)?|bitcoins?|btc|ethereum|ether|eth|dogecoin|doge|"
        r"solana|litecoin|monero|xrp|usdt|usdc|stablecoins?|nfts?|defi|blockchain|altcoins?|"
        r"satoshis?|coinbase|binance|kraken|metamask)\b",
        # the keys to a wallet
        r"\b(?:seed|recovery|mnemonic) phrases?\b",
        r"\b(?:crypto|bitcoin|hardware|cold) wallets?\b",
    ),
    _rule(
        Domain.money, "investment advice",
        # investing in any form
        r"\binvest(?:s|ing|ment|ments|or|ors|ed)?\b",
        # stocks, shares and the market
        r"\bstocks\b",
        r"\bstock (?:market|prices?|tips?|picks?|options?|portfolio|exchange|splits?|trading)\b",
        r"\bshares (?:of|in)\b|\bshare prices?\b",
        # buying, selling or holding an asset class: shares, bonds, gold, property
        r"\b(?:buy|sell|short|trade|hold|dump)\b[^.?!\n]{0,20}?\b(?:stocks?|shares|bonds|"
        r"precious metals?|commodit(?:y|ies)|futures|real estate|(?:gold|silver|platinum)"
        r"(?! (?:necklace|ring|earring|watch|chain|bracelet|jewel\w*|paint|foil|star|medal|frame|"
        r"dress|shoe|balloon|ribbon|sticker)s?\b))\b",
        r"\b(?:investment|stock|crypto|retirement) portfolio\b|\brebalanc\w+",
        # funds, accounts and instruments by name
        r"\b(?:401\(?k\)?|roth ira|ira accounts?|etfs?|index funds?|mutual funds?|hedge funds?|"
        r"dividends?|day[- ]trad\w*|trading|forex|options trading|bond yields?|pensions?|"
        r"retirement (?:fund|savings|account)s?)\b",
        # asking when or whether to trade: "should I sell?", "whether to buy"
        r"\bshould i (?:buy|sell|invest)\b",
        # central-bank moves as a trading signal
        r"\b(?:the fed|federal reserve|ecb) (?:meeting|decision|announcement)s?\b",
    ),
    # cash and money as such
    _rule(Domain.money, "money", r"\bmoney\b|\bcash\b"),
    # --- personal data ---------------------------------------------------------
    _rule(
        Domain.personal_data, "passwords or other credentials",
        # passwords and passcodes (wifi passwords, password hygiene excused in BENIGN)
        r"\bpass(?:words?|codes?|phrases?)\b|\bpwd\b|\bpasswd\b",
        # login details and credentials by name
        r"\b(?:login|log-in|sign[- ]in) (?:details|credentials|info)\b|\bcredentials?\b",
        # "my Netflix login" (a login page or button is not a credential)
        r"\b(?:my|your|his|her|their) (?:\w+ )?logins?\b"
        r"(?! (?:page|screen|button|form|flow|issue|problem|bug|redesign|error)s?\b)",
        # a code someone texted or mailed: "the code my bank texted me"
        r"\bcodes? (?:that )?(?:my |the |your )?\w+ (?:just )?(?:texted|sent|emailed|messaged) "
        r"(?:to )?me\b",
        # second factors and one-time codes
        r"\b(?:2fa|mfa|otp|one[- ]time (?:code|password)|verification codes?|security codes?|"
        r"auth(?:entication)? codes?|backup codes?|recovery codes?|two[- ]factor)\b",
        # PINs of cards, phones and SIMs: "my PIN", "the PIN of my debit card"
        r"\bpin (?:code|number)s?\b|\b(?:my|card|atm|debit|bank|phone|sim) pin\b",
        r"\bpin (?:of|for|to) (?:my|the|your|his|her|their) (?:\w+ )?(?:card|phone|account|sim)\b",
        # codes and combinations that open a home, a safe or an alarm
        r"\b(?:alarm|door|gate|garage|lockbox|keypad|entry|entrance) (?:codes?|combinations?)\b|"
        r"\b(?:safe|lock) combinations?\b",
        # account recovery secrets
        r"\bsecurity questions?\b|\bmother'?s maiden name\b",
        # a secret named by its use: "the code I use to get into my phone"
        r"\b(?:secret|code|word|key|pin|combination|phrase)s? (?:that )?(?:i|we|you|he|she|they) "
        r"(?:use|used|need) (?:to|for) (?:log|sign|get|unlock|open|access|enter)\b",
        r"\b(?:log ?in|log-?on|sign[- ]?(?:in|on)) (?:secret|code|key|data|word)s?\b|"
        r"\bsign[- ]on details\b",
        # keys and tokens of software accounts
        r"\b(?:api|secret|private|ssh|access) (?:keys?|tokens?)\b",
    ),
    _rule(
        Domain.personal_data, "an ID number or identity document",
        # government and health identifiers
        r"\b(?:ssns?|social security(?: numbers?)?|national (?:id|insurance)(?: numbers?)?|"
        r"(?:passport|driver'?s licen[cs]e|id card) (?:numbers?|no|details|scans?|copy)|"
        r"licen[cs]e numbers?|id numbers?|tax (?:id|identification)|"
        r"nhs numbers?|medicare numbers?|aadhaar|personal identification numbers?|"
        r"(?:health|medical) insurance numbers?)\b",
        # copies of identity documents ("a passport photo" is a portrait, not a copy)
        r"\b(?:scan|copy|photo|picture|image) of (?:my|his|her|their|the|a|[a-z]+'s) "
        r"(?:passport|id card|identity card|driver'?s licen[cs]e|birth certificate|"
        r"residence permit)\b",
        r"\b(?:birth|marriage|death) certificates?\b",
    ),
    _rule(
        Domain.personal_data, "a payment card number",
        # card numbers and the codes printed on cards
        r"\b(?:credit|debit|bank|payment|visa|mastercard|amex) card (?:numbers?|details|info|no)\b",
        r"\bcard (?:numbers?|details)\b|\b(?:cvv2?|cvc)\b",
        # "the three digits on the back of my card", "the numbers printed on my debit card"
        r"\b(?:digits|numbers)\b[^.?!\n]{0,30}?\b(?:on|of|from) (?:the (?:back|front) of )?"
        r"(?:my|the|your|his|her) (?:\w+ )?(?:card|visa|mastercard|amex)\b",
        r"\bexpir(?:y|ation) date (?:of|on) (?:my|the) card\b",
    ),
    _rule(
        Domain.personal_data, "someone's home address or whereabouts",
        # where another person lives: "Jonas's home address", "home addresses of my coworkers"
        rf"{_OTHERS}\s+(?:home|private|residential|street|postal) address(?:es)?\b",
        r"\b(?:home|private|residential) address(?:es)? of\b",
        rf"\bwhere {_PERSON} (?:lives?|is living|is staying|stays|moved to)\b",
        # "where does Jonas live?"
        rf"\bwhere (?:does|did) {_PERSON} (?:live|stay)\b",
        # unlisted contact details: "the private number of my neighbour"
        r"\b(?:private|unlisted|secret) (?:phone |mobile |cell )?(?:numbers?|addresses)\b",
        # following a person or their device: "track my partner's phone"
        rf"\b(?:track|trace|locate|follow|monitor)\w*\b[^.?!\n]{{0,20}}?{_OTHERS}\s+"
        r"(?:phone|location|whereabouts|car|movements|messages)\b",
        r"\bspy(?:ing)? on\b|\bstalk(?:s|ing|ed)? (?:my|him|her|them|someone|[a-z]+'s)\b|"
        r"\bstalkers?\b",
        # profiling a person: "find everything about my new neighbour", "a background check"
        r"\bbackground checks?\b|\bdig up (?:dirt|info|information|details) (?:on|about)\b",
        rf"\b(?:everything|anything) (?:you can )?(?:find |dig up )?(?:out )?(?:about|on) "
        rf"(?:my |the |our )?(?:new |old |former )?{_RELATION}\b",
        r"\bpersonal (?:info|information|details|data) (?:about|on|of) (?!me\b|myself\b)",
    ),
    _rule(
        Domain.personal_data, "someone else's private details",
        # what another person earns, owes or suffers from
        rf"{_OTHERS}\s+(?:monthly |annual )?(?:salary|salaries|wages?|income|earnings|debts?|"
        r"net worth|medical (?:history|records?)|health records?|criminal record|"
        r"date of birth|birthdate)\b",
        # how much other people earn
        r"\b(?:earns|earning|gets paid|get paid) (?:the most|the least|more than|less than)\b",
        # another person's identifiers and records: "Mia's student ID"
        rf"{_OTHERS}\s+(?:student |employee |staff |national |tax )?id(?: numbers?| cards?)?\b|"
        r"\b(?:school|medical|criminal|court) records\b",
        # finding out a private field one does not have: "figure out my neighbour's number"
        rf"\b(?:figure out|find out|dig up|track down|hunt down)\b[^.?!\n]{{0,20}}?{_OTHERS}\s+"
        rf"{_PRIVATE_FIELD}\b",
        r"\bhow much (?:does|do|did) (?:\w+ ){1,3}(?:earn|get paid)\b",
        # another person's private conversations and records
        rf"{_OTHERS}\s+(?:private |personal )?(?:text messages|texts|dms|direct messages|diary|"
        r"whatsapp\w*|browser history|search history|call logs?)\b",
    ),
    _rule(
        Domain.personal_data, "sharing someone else's private data",
        # a sharing verb, then another person's private field: "send Alice's home address to Bob"
        # (a verb, not the noun after a possessive or an article: "Priya's email about her
        # new address" is a message to read)
        rf"(?<!'s )(?<!s' )(?<!\bthe )(?<!\ba )(?<!\ban )(?<!\bmy )(?<!\bher )(?<!\bhis )"
        rf"(?<!\byour )(?<!\btheir )(?<!\bthis )(?<!\bthat )"
        rf"\b(?:share|send|forward|give|post|publish|leak|tell|text|email|reveal|disclose|"
        # (not sent to the user: "send me Gail's number" is looked up for oneself; "tell me"
        # asks to reveal, and stays)
        rf"upload|sell)\b(?:(?<=\btell)|(?!\s+(?:me|us|myself)\b))[^.?!\n]{{0,40}}?(?<!\bto )(?<!\bat )(?<!\bon )(?<!\bin )(?<!\bfor )"
        rf"{_OTHERS}\s+{_PRIVATE_FIELD}\b",
        # making one's own home address or number public: "post my home address in the group"
        r"\b(?:post|publish|broadcast|leak)\b[^.?!\n]{0,20}?\bmy (?:home address|address|"
        r"phone number|mobile number|location)\b",
    ),
    # --- health ----------------------------------------------------------------
    _rule(
        Domain.health, "a diagnosis or medical condition",
        # asking for a diagnosis or medical judgement
        r"\bdiagnos(?:e|es|is|ed|ing|tic)\b|\bmedical (?:advice|opinion|condition|records?)\b",
        # named conditions
        rf"\b(?:{_CONDITIONS})\b",
        # inflammations and blood disorders by their medical suffix: "tonsillitis", "anemia"
        r"\b(?!academia|bohemia)[a-z]{3,}(?:itis|aemia|emia)\b|\b(?:sleep )?apno?ea\b",
        # "what's wrong with me", asking for a medical judgement
        r"\bwhat(?:'s| is) wrong with (?:me|my body)\b",
        # catching something: "I think I caught the flu"
        r"\b(?:have|got|caught|catching|coming down with) (?:a )?(?:cold|flu|fever|covid)\b",
        # tests and their numbers
        r"\b(?:blood tests?|bloodwork|blood sugar|blood pressure|mri|x-?rays?|ct scans?|"
        r"biopsy|lab results)\b",
        # crises: always a health matter, whatever else the request says
        r"\b(?:suicid\w*|self[- ]harm\w*|kill myself|end my life)\b",
        # treatment of something: "a treatment for my back", "a cure for migraines"
        r"\b(?:treatments?|cures?|remed(?:y|ies)|therapy) for\b",
        # health as such (machines' and teams' health are excused in BENIGN)
        r"\bhealth\b",
    ),
    _rule(
        Domain.health, "symptoms",
        # symptoms by name: "fever", "nausea", "a cough"
        rf"\b(?:{_SYMPTOMS})\b",
        rf"\b(?:stiff|sore|swollen|pounding|throbbing|aching|inflamed|itchy) (?:{_BODY})\b",
        r"\b(?:my|his|her|their|(?:kid|son|daughter|baby|child|toddler|husband|wife|partner|mom|"
        r"mum|dad|mother|father)'s) (?:body )?temperature\b",
        r"\b(?:bleed|bleeds|bled|bleeding)\b(?! edge)",
        # pain in a part of the body: "my lower back hurts", "stomach pain", "blood in my urine"
        rf"\b(?:my|his|her|their)\s+(?:\w+\s+)?(?:{_BODY})\b[^.?!\n]{{0,20}}?\b(?:{_FEEL})\b",
        rf"\b(?:{_BODY}) (?:pains?|aches?)\b",
        rf"\b(?:{_FEEL}|swelling|rash|ringing|spots?|blood|lumps?)\s+(?:in|on)\s+"
        rf"(?:my|his|her|their)\s+(?:\w+\s+)?(?:{_BODY}|urine|stool|pee|poop)\b",
        # injuries: "I twisted my ankle", "she can't move her leg", "do I need stitches"
        rf"\b(?:twisted|sprained|broke|broken|fractured|dislocated|pulled|strained|bruised|"
        rf"burned|burnt|injured|hurt|cut|bumped|banged)\s+(?:my|his|her|their)\s+(?:\w+\s+)?"
        rf"(?:{_BODY})\b",
        rf"\bcan'?t (?:move|feel|bend|lift|straighten) (?:my|his|her|their) (?:\w+ )?(?:{_BODY})\b",
        r"\b(?:need|needs|get|getting) stitches\b",
        rf"\b(?:this |a |my |the )(?:mole|wart|cyst|blister|boil|lesion|growth|bump|spot)s? "
        rf"(?:on|in|under|near) (?:my|his|her|their) (?:\w+ )?(?:{_BODY})\b|"
        r"\bmoles? (?:changes?|changed|changing|grow)",
        # fever by temperature: "has a temperature of 38.2"
        r"\b(?:has|have|had|running|runs) a (?:high |slight |mild )?temperature\b|"
        r"\btemperature of (?:3[7-9]|4[0-2]|99|10[0-6])\b",
        # conditions of the mind named by their effect
        r"\b(?:my|have|having|with|for|severe|social|chronic) anxiety\b|"
        r"\banxiety (?:disorder|meds|medication|attacks?)\b",
        # breathing trouble
        r"\b(?:stops?|stopped|stopping|trouble|difficulty|problems?) breathing\b",
        # feeling ill, and asking whether it needs a doctor
        r"\b(?:feel|feeling|felt|i'?m|i am|been) (?:really |so |very |a bit )?"
        r"(?:sick|unwell|ill|dizzy|feverish|faint)\b",
        r"\bshould i (?:see|call|go to) (?:a |the |my )?(?:doctor|gp|physician|er|hospital)\b",
    ),
    _rule(
        Domain.health, "medication or dosing",
        # drugs, supplements and their forms
        rf"\b(?:{_DRUGS})\b",
        # doses by word or by amount: "what dose", "800 mg"
        r"\b(?:dos(?:e|es|age|ages|ing)|overdos\w*)\b",
        r"\b\d+(?:\.\d+)?\s?(?:mg|mcg|µg|milligrams?|micrograms?|ml of|iu)\b",
        # whether something is safe to take or to mix
        r"\bis it (?:safe|ok|okay|dangerous) to (?:take|mix|combine)\b",
    ),
)

_ENGLISH_BENIGN: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, _FLAGS)
    for p in (
        # --- money look-alikes ---
        # banks of rivers, and things called banks that hold no money
        r"\briver ?banks?\b|\bbanks? of the (?:\w+ )?(?:river|lake|canal|stream|creek|pond)\b",
        (
            r"\b(?:food|blood|sperm|seed|memory|power|data|question|test|word|image|gene|sound|"
            r"snow|fog|cloud|sand|piggy|toy) ?banks?\b|\bbank holidays?\b|"
            r"\b(?:north|east|south|west|left|right|far|opposite)(?:ern)? bank\b"
        ),
        # banking days or hours is saving them up: "bank my leftover holiday days"
        (
            r"\bbank (?:my|our|your|his|her|their|the|some|those|these|a few) (?:\w+ )?"
            r"(?:days?|hours?|points?|miles|time|leave|overtime|sleep|credits?|holidays?|vacation)\b"
        ),
        # where one stands or meets: "outside the bank", "in front of the Barclays bank"
        (
            rf"\b(?:outside|in front of|next to|opposite|across (?:the (?:road|street) )?from|behind|"
            rf"around the corner from) {_BANK_PLACE}"
        ),
        # relying on something ("you can bank on it"), not a bank ("the bank on Friday")
        r"(?<!\bthe )(?<!\bmy )(?<!\bour )(?<!\ba )\bbank(?:ing)? on\b|\bbanked (?:turn|curve)\b",
        # a bank as a place: calling or visiting it is an errand and an appointment there a
        # calendar entry, like the dentist ("remind me to swing by the bank", "a meeting
        # with my bank on Monday at 10", "the bank's open day"); its accounts, cards and
        # balances are not ("a call about my bank account" stays money)
        (
            rf"\b(?:call(?:ing)?|phon(?:e|ing)|ring(?:ing)?|visit(?:ing)?|(?:go|goes|going|went|"
            rf"get|getting|head(?:ing)?|run(?:ning)?|walk(?:ing)?|driv(?:e|ing)|hurry) (?:over )?to|"
            rf"(?:stop|stopping|drop|dropping|swing|swinging|pop|popping) (?:at|by|into|in at|"
            rf"over to)|be at|meet (?:\w+ ){{0,2}}(?:at|outside|in front of)) {_BANK_PLACE}"
        ),
        visit(_EVENTS, r"at|with|in|by|to", _BANK_PLACE, _TIMES),
        (
            rf"\b(?:the |my |our )?bank'?s (?:{_EVENTS})\b|"
            rf"\b(?:{_EVENTS}) (?:hosted|organi[sz]ed|run|held|put on|sponsored) by {_BANK_PLACE}"
        ),
        # mail from the bank is mail to read ("anything from the bank I should worry about?");
        # what it is about is still read ("an email from my bank about my overdraft")
        (
            rf"\b(?:e-?mails?|mails?|letters?|messages?|texts?|post|anything|something|nothing|"
            rf"news|notifications?|newsletters?) (?:\w+ )?from {_BANK_PLACE}"
        ),
        # its branches and opening hours: "does the bank open on Saturdays"
        (
            r"\bbank(?:'s)? (?:branch(?:es)?|opening (?:hours|times)|hours)\b|"
            r"\bbank (?:opens|closes|is (?:open|closed))\b|\b(?:does|is) the bank (?:open|close)"
        ),
        # a bank as the subject of a lecture, a museum or a story
        (
            r"\b(?:banks?|stock exchange|mint)\b[^.?!\n]{0,25}?\b(?:history|lecture|museum|"
            r"exhibition|documentary|heist|robber(?:y|ies|s)?|hold-?ups?|building|architecture)\b"
        ),
        r"\b(?:robbery|heist|hold-?up|raid) (?:at|on|of) (?:a|the) (?:\w+ )?bank\b",
        r"\b(?:history|museum|architecture) of the (?:\w+ )?(?:bank|stock exchange|mint)\b",
        # a jar or box for coins is a piggy bank: "the kids' pocket-money jar"
        (
            r"\b(?:pocket[- ])?money (?:jars?|box(?:es)?|tins?)\b|"
            r"\bmoney (?:plant|tree)s?\b|\bmoney heist\b|\bmoneyball\b|\bcash cow\b|\bmonopoly money\b"
        ),
        # a street or a station named after a bank: "the café on Bank Street"
        r"\bbank (?:street|st|road|rd|lane|avenue|square|station)\b",
        # effort that paid off, balance on one's feet, a library's or a museum's loan, "cash in
        # on" a trend, "on the money" (exactly right)
        (
            r"\b(?:it|that|this|everything|efforts?|work|practi[cs]e|rehearsals?|training|patience|"
            r"studying|preparation)\b[^.?!\n]{0,20}?\b(?:paid|pays|paying|will pay|would pay) off\b|"
            r"\b(?:lost|lose|loses|losing|keep|keeping|kept|regain\w*|find|found|improve\w*|work on|"
            r"training) (?:my|your|his|her|their|our) balance\b"
        ),
        (
            r"\bloan (?:periods?|desk|extensions?)\b|\bon loan (?:from|to)\b|\bcash(?:ed|es|ing)? in on\b|"
            r"\b(?:right |spot |bang )?on the money\b"
        ),
        # a guesthouse, a business park, soup stock, "atm" for "at the moment", records set
        (
            r"\b(?:family[- ]run|small|little|cosy|cozy|cheap|quiet|charming|local) pensions?\b|"
            r"\bpensions? (?:near|in the old town|by the (?:lake|sea|beach|station))\b|"
            r"\btrading (?:estates?|posts?|hours|standards)\b|"
            r"\b(?:chicken|beef|veg(?:etable|gie)?|fish|bone|soup|ham) stocks?\b"
        ),
        (
            r"\b(?:can'?t|cannot|busy|swamped|driving|working|free|out|away|not)\b[^.?!\n]{0,12}?"
            r"\batm\b(?! (?:card|machine|pin|fee|withdrawal|near|nearby))"
        ),
        # ETH, the Zurich university, is not the coin
        r"\beth (?:z(?:u|ü|ue)rich|lausanne|campus|library|cafeteria|mensa)\b",
        # idioms with "pay"
        r"\bpa(?:y|ys|ying|id) (?:close |more |no |some )?attention\b",
        r"\bpa(?:y|ying|id) (?:a |him a |her a |them a |us a )?visits?\b",
        r"\bpa(?:y|ying|id) (?:my |our |his |her |their )?(?:respects|tribute|homage)\b",
        # a password or door code for a party or on an invitation is a game or an
        # invitation detail ("the password for the fancy dress party", "the door code on the invite")
        party_secret(r"pass(?:words?|codes?|phrases?)|code ?words?|(?:door|entry|gate|buzzer|keypad) codes?",
                     r"part(?:y|ies)|invit(?:e|es|ation|ations)|speakeasy|fancy[- ]dress|costume|"
                     r"at the door|escape room|riddles?|treasure hunt|scavenger hunt|murder[- ]mystery|"
                     r"(?:game|quiz|trivia|bingo|poker) nights?"),
        # a bill said to be paid, to tick off: "paid the electricity bill, cross it off"
        (
            r"\b(?:paid|settled) (?:the |my |our )?(?:\w+ ){0,2}(?:bills?|invoices?|rent|fines?|"
            r"fees?|subscriptions?)\b[^.?!\n]{0,20}?\b(?:cross|tick|check|mark|strike)(?:ed)? "
            r"(?:it |that |them )?(?:off|as done|done)\b"
        ),
        r"\bpay ?(?:load|wall)s?\b|\bpay it forward\b|\bpaid (?:time off|leave|holidays?|vacation)\b",
        r"\btrading cards?\b|\b(?:in|out of) stock\b|\bstock (?:photos?|images?|footage|up)\b",
        r"\bwork[- ]life balance\b",
        # investing time or effort, and what a shop takes
        r"\binvest(?:s|ing|ed)? (?:more |some |a lot of |my |our )?(?:time|effort|energy)\b",
        r"\b(?:only )?(?:takes|accepts) (?:only )?cash\b|\bcash only\b",
        # where a shop takes the money is a place: "the cash desk shuts at 6"
        r"\bcash (?:desks?|registers?|tills?)\b",
        # a price left to the guest, and the team that runs payroll, are no payment asked for
        (
            r"\bpay[- ]what[- ]you[- ](?:want|can|feel|like|wish)\b|"
            r"\bpayroll (?:team|department|dept|office|colleagues?)\b"
        ),
        # --- personal-data look-alikes ---
        # turning a second factor on protects an account; it discloses no code
        (
            r"\b(?:enable|set ?up|turn on|activate|switch on)(?: the)? (?:2fa|mfa|two[- ]factor"
            r"(?: authentication| login)?)\b"
        ),
        # calling or visiting the office is an errand, like calling the bank
        r"\bsocial security (?:office|administration|agency|building)\b",
        # --- health look-alikes ---
        # the health of machines, projects and organisations
        (
            r"\bhealth ?checks?\b|\bhealth[- ]?(?:endpoint|probe|bar|points|monitor\w*|dashboard|"
            r"status|score)s?\b"
        ),
        (
            r"\b(?:server|system|service|cluster|node|disk|drive|battery|database|db|api|app|site|"
            r"website|project|repo|repository|pipeline|network|code|codebase|financial|fiscal|team|"
            r"soil|plant|garden|account|device|ssd|hdd|hard drive|backup|brand|company|business)"
            r"(?:'s)? health\b"
        ),
        # a day off to rest is a calendar entry, not a health question
        r"\bmental health days?\b|\bwellness days?\b",
        # an injury or illness given as the reason a plan is called off: "cancel climbing on
        # saturday, i hurt my finger" (a question about it is still read: "... should I ice it")
        (
            r"\b(?:cancel|postpone|move|reschedule|push back|call off|skip|drop)\b[^.?!\n]{0,40}?"
            r"(?:,|because|since|as|cause|cuz|bc)\s+(?:i|i've|i have|i'm|she|he|they|we|\w+)\s+"
            r"(?:\w+\s+)?(?:hurt|twisted|sprained|pulled|bruised|cut|injured|(?:am|is|are|'m|got|"
            r"feel|feeling) (?:sick|ill|unwell))\b"
        ),
        # a dose of salt or chili is cooking
        seasoning_dose(
            r"doses?", r"of",
            r"salt|sugar|pepper|chil(?:l)?i(?:es)?|chilli|paprika|garlic|ginger|cinnamon|nutmeg|"
            r"vanilla|saffron|cumin|curry|spices?|herbs|butter|cream|lemon|lime|vinegar|honey|yeast|"
            r"flour|oil|sauce|mustard|basil|parsley|oregano|thyme|rosemary|coffee|espresso"),
        # collecting a prescription is an errand, like the pharmacy as a place (what it is
        # for is still read: "pick up my prescription for Xanax")
        (
            r"\b(?:pick(?:ing)? up|collect(?:ing)?|fetch(?:ing)?) (?:my |the |her |his |their |"
            r"[a-z]+'s )?(?:repeat |new )?prescriptions?\b"
        ),
        # a pet's vaccination at the vet
        (
            r"\b(?:vaccin\w*|jabs?|shots?|boosters?)\b[^.?!\n]{0,25}?\b(?:at|with|from) the vets?'?s?\b|"
            r"\b(?:dog|cat|puppy|kitten|pet|horse)(?:'s)? (?:vaccin\w*|jabs?|shots?|boosters?)\b"
        ),
        # an appointment named by its purpose is a visit to book, like the dentist
        (
            r"\b(?:\w+ )?(?:shots?|jabs?|vaccinations?|vaccines?|check-?ups?|"
            r"physio(?:therapy)?|therapy|blood tests?|x-?rays?|mri|scans?|screenings?) "
            r"(?:appointments?|sessions?|slots?|visits?)\b"
        ),
        (
            r"\b(?:malware|computer|ransomware|trojan|virus|worm) infections?\b|"
            r"\binfected (?:with|by) (?:malware|a virus|ransomware|a trojan)\b|"
            r"\b(?:files?|machine|laptop|computer|pc|server|usb|drive) (?:is |was |got )?infected\b"
        ),
        # idioms with sick, pain, bleeding, cold, rash
        (
            r"\bsick of\b|\bsick and tired\b|\btired of\b|\bcall(?:s|ing|ed)? in sick\b|"
            r"\bsick (?:days?|leave|note)\b"
        ),
        (
            r"\bstroke of (?:luck|genius|midnight)\b|\b(?:brush|pen|key) ?strokes?\b|"
            r"\bpull(?:ed|ing|s)? (?:my|his|her|their|your) leg\b|"
            r"\b(?:zoom|decision|alert|meeting|screen|change|compassion) fatigue\b"
        ),
        # side effects of code and changes, not of drugs
        (
            r"\b(?:functions?|code|methods?|api|scripts?|query|queries|calls?|changes?|refactor\w*|"
            r"commands?|updates?)\b[^.?!\n]{0,20}?\bside[- ]effects?\b|\bside[- ]effects?\b"
            r"[^.?!\n]{0,20}?\b(?:functions?|code|methods?|api|scripts?|quer(?:y|ies)|refactor\w*|"
            r"commands?)\b"
        ),
        r"\bbleeding edge\b|\bpain points?\b|\bpain in the (?:neck|butt|ass)\b|\bgrowing pains\b",
        (
            r"\bdoctor who\b|\bcold (?:calls?|emails?|brew|storage|start)\b|"
            r"\brash (?:decisions?|choices?|moves?|promises?)\b"
        ),
        # tablets that are computers
        (
            r"\b(?:android|ipad|samsung|drawing|graphics|windows|wacom|amazon fire) tablets?\b|"
            r"\btablets? (?:computer|device|app|screen|mode|stand|case|charger)s?\b"
        ),
        r"\b(?:great|economic|tropical) depression\b|\bcancer (?:zodiac|sign|horoscope)\b",
        # health words in a household, a workplace, a kitchen or an idiom: bleeding the
        # radiators, a swimming stroke, dishwasher tablets, a paper's supplements, health
        # and safety, cabin fever, a swollen river, bruised apples, ill-prepared, cold feet
        (
            r"\bbleed(?:s|ing)? (?:the |our |my )?(?:radiators?|brakes?|pipes?|heating|system)\b|"
            r"\b(?:butterfly|breast|back|swimming|freestyle|crawl|paddle|rowing|golf|tennis) ?strokes?\b"
        ),
        (
            r"\b(?:coffee|espresso|nespresso|dishwasher|washing machine|laundry|cleaning|toilet|"
            r"chlorine|pool|descaling) (?:capsules?|tablets?|pods?|pills?)\b|"
            r"\b(?:time|space) capsules?\b|\bcapsule (?:wardrobe|collection|hotel)s?\b"
        ),
        (
            r"\b(?:weekend|sunday|saturday|colou?r|travel|newspaper|magazine|paper'?s) supplements?\b|"
            r"\bsupplements? (?:of|in|to) the (?:paper|newspaper|magazine)\b"
        ),
        r"\bhealth (?:and|&) safety\b",
        (
            r"\b(?:cabin|spring|world cup|football|election|saturday night|gold|disco|christmas|"
            r"wedding|shopping) fever\b|\bfever[- ]?(?:tree|pitch|dream)\b"
        ),
        (
            r"\b(?:rivers?|streams?|creeks?|brooks?|lakes?|canals?|waters?)\b[^.?!\n]{0,15}?\bswollen\b|"
            r"\bswollen (?:rivers?|streams?|creeks?|brooks?|lakes?|canals?)\b|"
            r"\bbruised (?:apples?|fruit|bananas?|pears?|peach(?:es)?|ego|pride)\b"
        ),
        (
            r"\bill[- ](?:prepared|advised|equipped|timed|fated|suited|informed|mannered|tempered|"
            r"judged|conceived|at ease)\b|\bcold feet\b|"
            r"\b(?:nearly|almost) (?:gave|give|given|had) (?:me |him |her |us |them )?a heart attack\b|"
            r"\b(?:like|basically|just) (?:an? |the )?\w+ on steroids\b"
        ),
        # "a cold drink", a medicine ball, the health food shop, a zinc bucket, magnesium wheels
        (
            r"\bcold (?:drinks?|beers?|ones?|showers?|water|coffee|cases?|snaps?|fronts?|spells?|war)\b|"
            r"\bmedicine balls?\b|\bhealth[- ]food\w*|\bhealth (?:shop|store|club|spa|resort)s?\b|"
            r"\bzinc (?:roofs?|buckets?|planters?|tubs?|sheets?|plates?|coated|alloy|baths?)\b|"
            r"\bmagnesium (?:alloy|wheels?|block|fire ?starters?)\b"
        ),
        # machines have symptoms, diagnostics and remedies too
        (
            r"\b(?:symptoms?|signs?) of (?:a |an |the |my )?(?:failing |dying |broken |slow |bad |faulty )?"
            r"(?:hard drive|disk|ssd|battery|laptop|computer|pc|car|engine|router|network|server|"
            r"clutch|gearbox|alternator|printer|phone|boiler|fridge)s?\b|"
            r"\bdiagnos\w* (?:on|of|for) (?:the |my |our |a )?(?:router|car|engine|laptop|computer|pc|"
            r"network|server|printer|boiler|washing machine|dishwasher|phone|wi-?fi|system|disk|drive|"
            r"bike|van)\b|"
            r"\b(?:car|engine|network|system|disk|hardware|router|boiler|computer|self)[- ]diagnos\w*"
        ),
        (
            r"\b(?:treatments?|cures?|remed(?:y|ies)) for (?:the |a |my |our )?(?:\w+ )?(?:doors?|hinges?|"
            r"floor(?:boards)?|decks?|wood|fences?|lawns?|mou?ld|rust|stains?|boredom|procrastination|"
            r"squeak\w*|leaks?|clogs?|drains?|bugs? in (?:the|my) code|slow wi-?fi)\b"
        ),
        # --- personal-data look-alikes ---
        # the household wifi code is shared with guests, not a credential to protect
        # (a router's admin password is, so "router" alone does not excuse)
        r"\b(?:wi-?fi|wlan|guest network|hotspot)\b[^.?!\n]{0,30}?\bpass(?:word|code)s?\b",
        r"\bpass(?:word|code)s?\b[^.?!\n]{0,30}?\b(?:wi-?fi|wlan|guest network|hotspot)\b",
        # asking whether a mail that wants passwords is phishing hands none over ("that
        # security audit email asking for my passwords file, is that legit?")
        (
            r"\b(?:the|that|this|an|a) (?:\w+ ){0,3}(?:e-?mail|message|mail|text)\b[^.?!\n]{0,60}?"
            r"\bpass(?:words?|codes?)\b[^.?!\n]{0,40}?\b(?:legit\w*|phishing|(?:a )?scam|fake|"
            r"genuine|suspicious)\b"
        ),
        # talking about passwords without handling one: policies, managers, changing your own
        r"\bpassword (?:polic(?:y|ies)|rules|requirements|strength|complexity|managers?)\b",
        # a car park is no one's car, an order's ID no one's identity
        (
            r"\bcar[- ](?:parks?|wash(?:es)?|hire|rentals?|boot sales?|seats?|sharing|pool)\b|"
            r"\b(?:order|tracking|booking|reference|ticket|invoice|customer|meeting|transaction|parcel|"
            r"shipment|case|claim) id(?: numbers?)?\b"
        ),
        # records broken at a sports day are not a pupil's file
        (
            r"\b(?:broke|break|breaks|breaking|set|sets|setting|beat|beats|beating|holds?) (?:\w+ )?"
            r"(?:school|club|world|national|county|track|meet) records?\b"
        ),
        # a file or a page locked by a password, and a person's qualifications
        (
            r"\bpassword[- ]protected\b|\b(?:academic|professional|teaching|impressive|green|"
            r"scientific|speaker'?s|keynote'?s) credentials\b"
        ),
        (
            r"\b(?:change|update|rotate|renew|reset) (?:my|our|all my|the) (?:\w+ )?passwords?\b"
            r"(?! and (?:tell|send|give|show))"
        ),
    )
)

_LANGUAGES = (de, fr, es, it, pt)
RULES: tuple[Rule, ...] = _ENGLISH_RULES + tuple(r for lang in _LANGUAGES for r in lang.RULES)
BENIGN: tuple[re.Pattern[str], ...] = _ENGLISH_BENIGN + tuple(
    b for lang in _LANGUAGES for b in lang.BENIGN)
# Key words whose misspellings are read as meant (botpsy.safety.fuzzy): words that
# decide a rule, long enough that a slip of the keyboard is told from another word.
_ENGLISH_VOCABULARY = (
    "password", "passcode", "passport", "credentials", "security", "social", "credit", "card",
    "account", "transfer", "payment", "salary", "mortgage", "bitcoin", "invest", "investment",
    "pension", "savings", "reimburse", "refund", "balance", "banking",
    "prescription", "medication", "medicine", "ibuprofen", "paracetamol", "acetaminophen",
    "antibiotics", "antidepressants", "amoxicillin", "insulin", "migraine", "diabetes",
    "symptoms", "dosage", "depression", "cholesterol", "pills", "tablets", "vitamin",
)
VOCABULARY: tuple[str, ...] = _ENGLISH_VOCABULARY + tuple(
    w for lang in _LANGUAGES for w in lang.VOCABULARY)

_SECRET_KEYWORDS = (
    r"password|passwd|pwd|passcode|pin|api[_ ]?key|secret|token|passwort|kennwort|"
    r"mot de passe|contrasena|contraseña|senha"
)
# Secrets written out in text: "password: hunter2", "pin = 1234".
SECRET_VALUE = re.compile(
    rf"\b(?:{_SECRET_KEYWORDS})\s*(?:is|:|=)\s*[\"']?"
    r"(?=[^\s\"']*[\d\W_])[^\s\"']{4,}",
    _FLAGS,
)
# The keyword alone, to find "p4ssword: s3cret" in a reading with letters for digits
# (the value is then read as written: its digits are what makes it a secret).
SECRET_KEYWORD = re.compile(rf"\b(?:{_SECRET_KEYWORDS})", _FLAGS)
PRIVATE_KEY = re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----")
# digits with any light separators between them: "4111 1111", "4111.1111", "4111  1111"
CARD_CANDIDATE = re.compile(r"(?<![\d-])(?:\d(?:[ ._/-]|  )?){12,18}\d(?![\d-])")
# US SSNs, 3-2-4 digits: "123-45-6789" and, since no phone number is grouped so,
# "123 45 6789", but not as a group of a longer spaced number ("+1 123 45 6789 0").
# (The patterns start with a digit and look behind it: a scan for a digit is fast.)
SSN_CANDIDATE = re.compile(
    r"\d(?:(?<![\d-]\d)\d\d-\d{2}-\d{4}(?![\d-])|"
    r"(?<![\d+]\d)(?<![\d+][ .-]\d)\d\d \d{2} \d{4}(?![ .-]?\d))"
)
# Nine digits in a row are an SSN only next to a cue ("SSN 123456789", "SS# ..."):
# alone they are as likely an order or a tracking number. Cue within SSN_CUE_BEFORE
# characters before the number or SSN_CUE_AFTER after it.
SSN_BARE = re.compile(r"\d(?<![\d+]\d)(?<![\d+][ .-]\d)\d{8}(?![ .-]?\d)")
SSN_CUE = re.compile(
    r"\b(?:ssns?(?![a-z])|ss ?(?:#|nos?\b|numbers?\b)|social[- ]?sec(?:urity)?\b|"
    r"soc\.? ?sec\b)",
    _FLAGS,
)
SSN_CUE_BEFORE, SSN_CUE_AFTER = 40, 20
IBAN_CANDIDATE = re.compile(
    r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b", re.IGNORECASE
)
