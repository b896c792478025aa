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

Labelling convention (for eval sets): a request is in a domain when it asks
about or acts on one of the listed sub-areas, even if the action is only a note
or a reminder ("remind me to pay rent" is money, "remind me to take my pills" is
health), but scheduling a visit ("book a dentist appointment") is not health and
looking up a contact's number for yourself is not personal data; sharing it with
someone else is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from botpsy.safety.config import Domain

_FLAGS = re.IGNORECASE


@dataclass(frozen=True)
class Rule:
    """One pattern that puts text in ``domain``; ``reason`` says why in plain words."""

    domain: Domain
    reason: str
    pattern: re.Pattern[str]


def _rule(domain: Domain, reason: str, *alternatives: str) -> Rule:
    return Rule(domain, reason, re.compile("|".join(f"(?:{a})" for a in alternatives), _FLAGS))


_AMOUNT = (
    r"[$€£¥]\s?\d[\d,.]*(?:\s?[km]\b)?|"
    r"\b\d[\d,.]*\s?(?:k\s)?(?:dollars?|euros?|pounds?|bucks|usd|eur|gbp|chf|btc|eth)\b"
)
_BODY = (
    r"head|chest|stomach|back|knees?|throat|eyes?|ears?|skin|heart|legs?|arms?|tooth|teeth|"
    r"foot|feet|neck|shoulders?|wrists?|ankles?|hips?|lungs?|kidneys?|liver|belly|tummy|"
    r"joints?|muscles?|bones?|gums?|toes?|fingers?|nose|mouth|tongue|breasts?|groin|bladder"
)
_FEEL = r"hurts?|hurting|aches?|aching|pains?|sore|swollen|bleeding|itch(?:y|es|ing)?|numb|burning|lump"
_CONDITIONS = (
    r"cancer|tumou?rs?|diabetes|diabetic|covid(?:-19)?|coronavirus|influenza|the flu|asthma|"
    r"hypertension|cholesterol|heart attack|pneumonia|bronchitis|stds?|stis?|hiv|hepatitis|"
    r"arthritis|migraines?|depression|depressed|anxiety attacks?|panic attacks?|adhd|dementia|"
    r"alzheimer'?s|eczema|psoriasis|allerg(?:y|ies|ic)|concussion|fractured?|sprain(?:ed)?|"
    r"strep throat|utis?|urinary tract|pregnan(?:t|cy)|miscarriage|ovulat\w*|menstrua\w*|"
    r"insomnia|eating disorder|anorexia|bulimia|schizophreni\w*|bipolar|ptsd|infections?|"
    r"infected|mental health|std test"
)
_SYMPTOMS = (
    r"symptoms?|fever|feverish|nausea|nauseous|vomit(?:ing|ed)?|throwing up|diarrh?o?ea|"
    r"constipat\w+|coughing|a cough|sore throat|runny nose|dizz(?:y|iness)|chest pains?|"
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
    r"sleeping pills?|birth control|contracepti\w+|viagra|ozempic|wegovy|semaglutide|"
    r"vaccines?|vaccinat\w+|inhalers?|epipen|chemo(?:therapy)?|"
    r"medications?|medicines?|meds|pills?|tablets? of|take (?:\w+ )?tablets?|capsules?|"
    r"prescriptions?|prescribed|"
    r"pharmacist|drug interactions?|over[- ]the[- ]counter"
)
_PRIVATE_FIELD = (
    r"(?:new |home |cell |mobile |private |personal |current |work |phone )?"
    r"(?:home address|address|phone(?: number)?|mobile(?: number)?|cell(?: number)?|number|"
    r"date of birth|dob|salary|location|whereabouts|medical \w+|health \w+|diagnosis|ssn|"
    r"social security(?: number)?|passport(?: number)?|contact (?:details|info|card)|"
    r"personal (?:details|info|information|data)|private (?:details|info|information|data|"
    r"photos?|messages?|pictures?))"
)

RULES: tuple[Rule, ...] = (
    # --- money -------------------------------------------------------------
    _rule(
        Domain.money, "sending or transferring money",
        rf"\b(?:wire|transfer|send|move|lend|loan|pay|remit|venmo|zelle)\b[^.?!\n]{{0,40}}?"
        rf"(?:{_AMOUNT}|\bmoney\b|\bfunds\b|\bcash\b)",
        r"\b(?:wire|bank|money|funds?|international|sepa|swift|interbank) transfers?\b",
        r"\bwire (?:it|them|the (?:money|amount|payment|funds))\b",
    ),
    _rule(
        Domain.money, "a payment",
        r"\b(?:pay|pays|paying|paid|payments?|repay\w*|prepa(?:y|id)|payday|paycheck|payroll)\b",
        r"\b(?:paypal|venmo|zelle|cash ?app|apple pay|google pay|revolut)\b",
        r"\b(?:refunds?|chargebacks?|direct debits?|standing orders?|reimburse\w*|"
        r"overdue (?:bill|invoice)s?|bills? payments?)\b",
    ),
    _rule(
        Domain.money, "banking",
        r"\bbank(?:s|ing|er|ers)?\b",
        r"\b(?:checking|savings|brokerage|bank|current|joint) accounts?\b",
        r"\b(?:my|account|bank|card|current|available|remaining) balance\b",
        r"\bbalance (?:sheet|transfer)s?\b",
        r"\b(?:overdraft|mortgages?|loans?|credit scores?|credit limit|interest rates?|atms?|"
        r"routing numbers?|ibans?|swift codes?|sort codes?|account numbers?|"
        r"credit cards?|debit cards?|tax returns?|tax refunds?|my taxes|file (?:my )?taxes)\b",
    ),
    _rule(
        Domain.money, "cryptocurrency",
        r"\b(?:crypto\w*|bitcoins?|btc|ethereum|ether|eth|dogecoin|doge|solana|litecoin|"
        r"monero|xrp|usdt|usdc|stablecoins?|nfts?|defi|blockchain|altcoins?|satoshis?|"
        r"coinbase|binance|kraken|metamask)\b",
        r"\b(?:seed|recovery|mnemonic) phrases?\b",
        r"\b(?:crypto|bitcoin|hardware|cold) wallets?\b",
    ),
    _rule(
        Domain.money, "investment advice",
        r"\binvest(?:s|ing|ment|ments|or|ors|ed)?\b",
        r"\bstocks\b",
        r"\bstock (?:market|prices?|tips?|picks?|options?|portfolio|exchange|splits?|trading)\b",
        r"\b(?:buy|sell|short|trade|hold|dump)\b[^.?!\n]{0,20}?\b(?:stocks?|shares|bonds)\b",
        r"\bshares (?:of|in)\b|\bshare prices?\b",
        r"\b(?:investment|stock|crypto|retirement) portfolio\b|\brebalanc\w+",
        r"\b(?:401\(?k\)?|roth ira|ira accounts?|etfs?|index funds?|mutual funds?|hedge funds?|"
        r"dividends?|day[- ]trad\w*|trading|forex|options trading|bond yields?|pensions?|"
        r"retirement (?:fund|savings|account)s?)\b",
        r"\bshould i (?:buy|sell|invest)\b",
    ),
    _rule(Domain.money, "money", r"\bmoney\b|\bcash\b"),
    # --- personal data ---------------------------------------------------------
    _rule(
        Domain.personal_data, "passwords or other credentials",
        r"\bpass(?:words?|codes?|phrases?)\b|\bpwd\b|\bpasswd\b",
        r"\b(?:login|log-in|sign[- ]in) (?:details|credentials|info)\b|\bcredentials?\b",
        r"\b(?:2fa|mfa|otp|one[- ]time (?:code|password)|verification codes?|security codes?|"
        r"auth(?:entication)? codes?|backup codes?|recovery codes?)\b",
        r"\bpin (?:code|number)s?\b|\b(?:my|card|atm|debit|bank|phone|sim) pin\b",
        r"\bsecurity questions?\b|\bmother'?s maiden name\b",
        r"\b(?:api|secret|private|ssh|access) (?:keys?|tokens?)\b",
    ),
    _rule(
        Domain.personal_data, "an ID number",
        r"\b(?:ssns?|social security(?: numbers?)?|national (?:id|insurance)(?: numbers?)?|"
        r"(?:passport|driver'?s licen[cs]e|id card) (?:numbers?|no|details|scans?|copy|photos?)|"
        r"licen[cs]e numbers?|id numbers?|tax (?:id|identification)|"
        r"nhs numbers?|medicare numbers?|aadhaar|personal identification numbers?)\b",
    ),
    _rule(
        Domain.personal_data, "a payment card number",
        r"\b(?:credit|debit|bank|payment|visa|mastercard|amex) card (?:numbers?|details|info|no)\b",
        r"\bcard (?:numbers?|details)\b|\b(?:cvv2?|cvc)\b",
        r"\bexpir(?:y|ation) date (?:of|on) (?:my|the) card\b",
    ),
    _rule(
        Domain.personal_data, "sharing someone else's private data",
        rf"\b(?:share|send|forward|give|post|publish|leak|tell|text|email|reveal|disclose|"
        rf"upload|sell)\b[^.?!\n]{{0,40}}?(?<!\bto )(?<!\bat )(?<!\bon )(?<!\bin )(?<!\bfor )"
        rf"\b(?!(?:it|that|what|let|there|here|who|where|how|he|she)'s)"
        rf"(?:[a-z]+'s|his|her|their)\s+{_PRIVATE_FIELD}\b",
    ),
    # --- health ----------------------------------------------------------------
    _rule(
        Domain.health, "a diagnosis or medical condition",
        r"\bdiagnos(?:e|es|is|ed|ing|tic)\b|\bmedical (?:advice|opinion|condition|records?)\b",
        rf"\b(?:{_CONDITIONS})\b",
        r"\b(?:have|got|caught|catching|coming down with) (?:a )?(?:cold|flu|fever|covid)\b",
        r"\b(?:blood tests?|bloodwork|blood sugar|blood pressure|mri|x-?rays?|ct scans?|"
        r"biopsy|lab results)\b",
        r"\b(?:suicid\w*|self[- ]harm\w*|kill myself|end my life)\b",
        r"\bhealth\b",
    ),
    _rule(
        Domain.health, "symptoms",
        rf"\b(?:{_SYMPTOMS})\b",
        rf"\b(?:my|his|her|their)\s+(?:{_BODY})\b[^.?!\n]{{0,20}}?\b(?:{_FEEL})\b",
        rf"\b(?:{_FEEL}|swelling|rash)\s+(?:in|on)\s+(?:my|his|her|their)\s+(?:{_BODY})\b",
        r"\b(?:feel|feeling|felt|i'?m|i am|been) (?:really |so |very |a bit )?"
        r"(?:sick|unwell|ill|dizzy|feverish|faint)\b",
        r"\bshould i (?:see|call|go to) (?:a |the |my )?(?:doctor|gp|physician|er|hospital)\b",
    ),
    _rule(
        Domain.health, "medication or dosing",
        rf"\b(?:{_DRUGS})\b",
        r"\b(?:dos(?:e|es|age|ages|ing)|overdos\w*)\b",
        r"\b\d+(?:\.\d+)?\s?(?:mg|mcg|µg|milligrams?|micrograms?|ml of)\b",
        r"\bis it (?:safe|ok|okay|dangerous) to (?:take|mix|combine)\b",
    ),
)

BENIGN: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, _FLAGS)
    for p in (
        # money look-alikes
        r"\briver ?banks?\b|\bbanks? of the (?:\w+ )?(?:river|lake|canal|stream|creek|pond)\b",
        (
            r"\b(?:food|blood|sperm|seed|memory|power|data|question|test|word|image|gene|sound|"
            r"snow|fog|cloud|sand) ?banks?\b|\bbank holidays?\b|\b(?:west|left|south) bank\b"
        ),
        r"\bbank(?:ing)? on\b|\bbanked (?:turn|curve)\b",
        r"\bmoney (?:plant|tree)s?\b|\bmoney heist\b|\bmoneyball\b|\bcash cow\b",
        r"\bpa(?:y|ys|ying|id) (?:close |more |no |some )?attention\b",
        r"\bpa(?:y|ying|id) (?:a |him a |her a |them a |us a )?visits?\b",
        r"\bpa(?:y|ying|id) (?:my |our |his |her |their )?(?:respects|tribute|homage)\b",
        r"\bpay ?(?:load|wall)s?\b|\bpay it forward\b|\bpaid (?:time off|leave|holidays?|vacation)\b",
        r"\btrading cards?\b|\b(?:in|out of) stock\b|\bstock (?:photos?|images?|footage|up)\b",
        r"\bwork[- ]life balance\b",
        # health look-alikes
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
        (
            r"\b(?:malware|computer|ransomware|trojan|virus|worm) infections?\b|"
            r"\binfected (?:with|by) (?:malware|a virus|ransomware|a trojan)\b|"
            r"\b(?:files?|machine|laptop|computer|pc|server|usb|drive) (?:is |was |got )?infected\b"
        ),
        r"\bsick of\b|\bsick and tired\b|\bcall(?:s|ing|ed)? in sick\b|\bsick (?:days?|leave|note)\b",
        r"\bbleeding edge\b|\bpain points?\b|\bpain in the (?:neck|butt|ass)\b|\bgrowing pains\b",
        (
            r"\bdoctor who\b|\bcold (?:calls?|emails?|brew|storage|start)\b|"
            r"\brash (?:decisions?|choices?|moves?|promises?)\b"
        ),
        (
            r"\b(?:android|ipad|samsung|drawing|graphics|windows|wacom|amazon fire) tablets?\b|"
            r"\btablets? (?:computer|device|app|screen|mode|stand|case|charger)s?\b"
        ),
        r"\b(?:great|economic|tropical) depression\b|\bcancer (?:zodiac|sign|horoscope)\b",
        # personal-data look-alikes: the household wifi code is not a credential to protect
        r"\b(?:wi-?fi|wlan|guest network|hotspot|router)\b[^.?!\n]{0,30}?\bpass(?:word|code)s?\b",
        r"\bpass(?:word|code)s?\b[^.?!\n]{0,30}?\b(?:wi-?fi|wlan|guest network|hotspot|router)\b",
        r"\bpassword (?:polic(?:y|ies)|rules|requirements|strength|complexity)\b",
    )
)

# Secrets written out in text: "password: hunter2", "pin = 1234".
SECRET_VALUE = re.compile(
    r"\b(?:password|passwd|pwd|passcode|pin|api[_ ]?key|secret|token)\s*(?:is|:|=)\s*[\"']?"
    r"(?=[^\s\"']*[\d\W_])[^\s\"']{4,}",
    _FLAGS,
)
PRIVATE_KEY = re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----")
CARD_CANDIDATE = re.compile(r"(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d-])")
SSN_CANDIDATE = re.compile(r"(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])")
IBAN_CANDIDATE = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b")
