"""Italian rules of the scope lexicon (accents folded: "identità" is "identita").

"Banco" is also a market stall or a school desk, "ricetta" a recipe as well as a
prescription, "conto" the bill at a restaurant: such words decide only with context.
"""

from __future__ import annotations

from botpsy.safety.config import Domain
from botpsy.safety.languages import (
    BANKING,
    CARD_NUMBER,
    CONDITION,
    CREDENTIALS,
    CRYPTO,
    ID_NUMBER,
    INCOME,
    INVESTMENT,
    MEDICATION,
    MONEY,
    PAYMENT,
    PRIVATE_DETAILS,
    SHARING,
    SYMPTOMS,
    TRANSFER,
    WHEREABOUTS,
    about_money,
    amount,
    benign,
    day_names,
    get_well,
    illness_not_asked,
    not_for,
    party_secret,
    passed_on,
    rule,
    seasoning_dose,
    titled_note,
    visit,
    worry_asked,
)

M, P, H = Domain.money, Domain.personal_data, Domain.health

_NUMBERS = (
    r"un|uno|una|due|tre|quattro|cinque|sei|sette|otto|nove|dieci|venti|trenta|quaranta|"
    r"cinquanta|sessanta|cento|duecento|trecento|cinquecento|mille|mila"
)
_AMOUNT = amount(_NUMBERS)
_MY = r"(?:mio|mia|miei|mie|il mio|la mia|i miei|le mie|nostro|nostra)"
_OTHER = (
    r"(?:"
    r"(?:mio|mia|miei|il|la|lo|i|le|suo|sua|nuovo|nuova|\s)+ ?(?:ex\w*|vicin\w*|capo|capa|"
    r"collega|colleghi|coinquilin\w*|padrone di casa|ragazz\w*|fidanzat\w*|marito|moglie|"
    r"partner|figli\w*|fratell\w*|sorell\w*)|(?:il signor|la signora|sig\.|sig\.ra) (?-i:[A-Z])\w+"
    r")"
)
_BODY = (
    r"testa|gola|pancia|stomaco|schiena|denti|dente|orecchi\w*|occhi\w*|petto|gambe?|gamba|"
    r"braccio|braccia|piedi?|piede|ginocchi\w*|collo|spalle?|polsi?|polso|caviglie?|caviglia|"
    r"anca|pelle|cuore"
)

# A bank as a place: "in banca", "presso la Banca Sella", "con la mia banca".
_BANK = r"(?:\w+ )?banca\b" + not_for(
    r"per|e|a", r"aprire|chiudere|prelevare|ritirare|versare|incassare|firmare")
_EVENTS = (
    r"appuntament[oi]|riunion[ei]|chiamat[ae]|telefonat[ae]|incontr[oi]|colloqui?o?|visit[ae]|event[oi]|cena|pranzo|"
    r"aperitivo|convegno|cors[oi]|seminari?o?|festa|turno"
)
_TIMES = (
    day_names("it") + r"|domani|dopodomani|oggi|"
    r"alle|all'\w+|ore|prossimo|prossima|questo|questa|mattina|pomeriggio|sera|settimana|"
    r"di|il|a|mezzogiorno|\d{1,2}(?:[:.]\d\d)?"
)

# A phone number, for a contact's number passed on
_PHONE = r"(?:numero (?:di )?)?(?:cellulare|telefono|whatsapp)"

RULES = (
    rule(M, TRANSFER,
         r"\bbonifi?c\w*|\baddebit\w*|\bricarica (?:la|il) (?:carta|conto)\b",
         # taking cash out or paying it in: "prelevare 100 euro", "incassare un assegno"
         rf"\b(?:preleva|preliev|ritira|incass)\w*\b[^.?!\n]{{0,8}}?(?:{_AMOUNT}|\bassegn[oi]\b|"
         rf"\bcontanti\b)",
         rf"\b(?:manda\w*|invia\w*|trasferisci|presta\w*|dai|dagli|dalle|restituisci|rimanda|dona|donare|"
         rf"paga\w*|versa\w*)\b[^.?!\n]{{0,40}}?(?:{_AMOUNT}|\bsoldi\b|\bdenaro\b)"),
    rule(M, PAYMENT,
         r"\bpaga(?:re|mento\w*|menti|to|ta|no|rla|rlo|mi|gli|le|teli|glielo|gliela)?\b|"
         # settling a bill or an instalment: "salda la rata del mutuo"
         r"\bsald(?:a|are|ate|iamo) (?:la|il|le|i|l'|quella|quel) ?(?:\w+ )?(?:rata|rate|conto|fattura|"
         r"bolletta|debito|multa|spese)\b|\bpago\b|\bpagh\w*|\brimbors\w*|"
         r"\brestituisci\w* (?:\w+ )?(?:i soldi|il denaro|quello che)\b|\bsatispay\b|\bpostepay\b",
         # contesting a charge is asking for money back: "contesta quel movimento"
         r"\bcontest\w* (?:un|il|quel|questo|la|una|quella|questa|l') ?(?:\w+ )?"
         r"(?:movimento|transazione|operazione)\b"),
    rule(M, BANKING,
         rf"\bconti? (?:corrent\w*|bancari\w*|deposito|cointestat\w*)\b|\bsul {_MY}? ?conto\b",
         r"\bestratt[oi] conto\b|\b(?:massimale|plafond|limite) (?:della|di) (?:mia |sua |tua )?carta\b|"
         r"\bsaldo\b|\bbanca\b|\bbanche\b|\bbancari\w*|\bhome banking\b|\bbancomat\b|\bmutu[oi]\b|"
         r"\bprestit\w*|\bfinanziament\w*|\btass[oi] di interesse\b|\bdebit[oi]\b|\bcarta (?:di credito|di debito|"
         r"prepagata)\b",
         r"\bdichiarazione dei redditi\b|\b(?:le|pagare|delle|sulle) tasse\b|\bimposte\b"),
    rule(M, INCOME, r"\bstipendi[oi]\b|\bbusta paga\b|\bcedolino\b|\b(?:mio|nostro) reddito\b"),
    rule(M, CRYPTO, r"\bcriptovalut\w*|\bcripto\b"),
    rule(M, INVESTMENT,
         r"\binvest(?:ire|o|i|imento|imenti|ito|itore)\b|\bazioni (?:di|del|della)\b|"
         r"\b(?:comprare|vendere|tenere)\b[^.?!\n]{0,20}?\bazioni\b|\bin borsa\b|\bobbligazioni\b|"
         r"\bfondi? (?:di investimento|indicizzat\w*|pensione)\b|\bdividend\w*|\brisparmi\b|\betf\b"),
    rule(M, MONEY, r"\bsoldi\b|\bdenaro\b|\bcontanti\b"),
    # --- personal data ---
    rule(P, CREDENTIALS,
         r"\bparola d'ordine\b|\bcredenziali\b|\bdati di accesso\b|\bcodic[ei] (?:di verifica|di "
         r"sicurezza|di conferma|otp|di accesso|usa e getta)\b|\bpin (?:(?:del|dello|della|di) |dell')\w+|\bcodice pin\b",
         r"\bcodic[ei] (?:del |della |dell'|di )(?:cancello|portone|allarme|porta|garage|cassaforte|"
         r"lucchetto|citofono|ingresso)\b"),
    rule(P, ID_NUMBER,
         r"\bcodice fiscale\b|\bnumer[oi] (?:del|della|di) (?:(?:mio |mia )?(?:passaporto|carta d'identita|"
         r"patente|tessera sanitaria|previdenza sociale))",
         r"\bcarta d'identita\b|\btessera sanitaria\b",
         r"\b(?:foto|copia|scansione) (?:del|della|di) (?:mio |mia |sua )?(?:passaporto|patente|"
         r"carta d'identita|certificato di nascita|permesso di soggiorno)\b|\bcertificato di nascita\b"),
    rule(P, CARD_NUMBER,
         r"\bnumer[oi] (?:della|di) (?:mia )?carta\b",
         # the card named as one's own or as a payment card (the numbers on the menu are
         # a phone number)
         r"\b(?:cifre|numeri)\b[^.?!\n]{0,40}?\b(?:(?:mia|tua|sua|nostra) carta|"
         r"carta (?:di credito|di debito|prepagata|bancomat|visa|mastercard|amex)|"
         r"(?:retro|davanti) (?:della|alla) (?:mia |sua |tua )?carta)\b"),
    rule(P, WHEREABOUTS,
         r"\bdove (?:\w+ ){0,4}(?:abita|abitano|vive|vivono|alloggia|dorme)\b",
         r"\bindirizzo (?:di casa|privato|personale)\b|\b(?:cellulare|telefono|numero) "
         r"(?:privato|personale)\b",
         rf"\b(?:tutto|informazioni personali) (?:\w+ ){{0,4}}(?:su|sul|sulla|riguardo a) {_OTHER}\b",
         r"\b(?:rintracciare|localizzare|spiare|tracciare|seguire)\b[^.?!\n]{0,30}?\b(?:cellulare|"
         r"telefono|posizione)\b"),
    rule(P, PRIVATE_DETAILS,
         rf"\bquanto (?:guadagna|prende|guadagnano) (?:{_OTHER}|\w+)",
         r"\b(?:messaggi|chat|conversazioni|email|mail) (?:privat[ei]|personali)\b"),
    rule(P, SHARING,
         rf"\b(?:manda|invia|inoltra|dai|condividi|pubblica)\w*\b[^.?!\n]{{0,40}}?"
         rf"\b(?:indirizzo|telefono|cellulare|data di nascita) (?:di|del|della) (?:{_OTHER})",
         # a contact's number passed to someone else: "manda il cellulare di Gianni all'idraulico"
         rf"\b(?:manda|passa|gira|invia|da)(?:gli|le)\b[^.?!\n]{{0,40}}?\b(?:{_PHONE}) (?:di|del|della|dello)\b",
         passed_on(r"manda|mandare|invia|inviare|inoltra|passa|passare|dai|dare|condividi|gira|girare",
                   rf"(?:{_PHONE}) (?:di|del|della|dello)|numero (?:di|del|della) (?=(?:{_OTHER})|(?-i:[A-Z]))",
                   r"al|allo|alla|ai|agli|alle|all'|a", r"me|noi|partire|mano|breve|presto|posto")),
    # --- health ---
    rule(H, CONDITION,
         r"\bdepress\w*|\bdiabet\w*|\bcancro\b|\btumor\w*|\bemicrani\w*|\basma\b|\b(?:ho|hai|ha|con) (?:l')?influenza\b|"
         r"\braffreddore\b|\ballergi\w*|\binfezion\w*|\bcontagios\w*|\bincinta\b|"
         r"\b(?:appendic|bronch|gastr|sinus|cist|congiuntiv|tendin|ot|epat|artr|mening|tonsill)\w*ite\b|"
         r"\bipertension\w*|\bdiagnos\w*|\bmalatti\w*|\bmalat[oa]\b",
         r"\b(?:attacc\w*|crisi) di (?:panico|ansia)\b|\bfobi[ae]\b|\bdisturb\w* d'ansia\b",
         # the assistant asked to be a therapist: "fammi da psicologo", "una seduta di terapia"
         r"\b(?:fammi|fai|fa|sii) (?:da |il |lo |la |il mio |la mia )(?:psicolog[oa]|terapeuta|psicoterapeuta|"
         r"psichiatra)\b|\bsedut[ae] di (?:terapia|psicoterapia)\b",
         worry_asked(r"dimmi se|mi dici se|sai se", r"grave|preoccupante|allarmante"),
         r"\besami del sangue\b|\banalisi del sangue\b|\bla pressione (?:a|alta|bassa)\b|"
         r"\bpressione (?:arteriosa|alta|bassa|a \d)\b|\bcolesterolo\b|\bglicemia\b|\bradiografia\b|"
         r"\brisonanza\b|\btransaminasi\b|\bemocromo\b|\bferritina\b|\bcreatinina\b|\btrigliceridi\b"),
    rule(H, SYMPTOMS,
         rf"\bmal di (?:{_BODY})\b|\bmi fa male\b|\bfa male\b|\bdolor[ei]\b|\bfebbre\b|\bcapogir\w*|"
         r"\bvertigin\w*|\bnausea\b|\bvomit\w*|\btosse\b|\bprurito\b|\bmacchie (?:rosse|sulla pelle)\b|"
         r"\bsanguin(?:a|ano|ando|amento)\b",
         rf"\b(?:storto|storta|rotto|rotta|fratturat\w*|bruciat\w*|slogat\w*|tagliat\w*) "
         rf"(?:il|la|lo|i|le|un|una|mio|mia)? ?(?:{_BODY})\b",
         r"\bmi sento (?:\w+ ){0,2}(?:male|giu|debole|stanc\w*)\b|\bmi sento giu\b"),
    rule(H, MEDICATION,
         r"\bmedicin[ae]\b|\bmedicinal\w*|\bfarmac[oi]\b|\bpastigli\w*|\bpillol\w*|\bcompresse\b|"
         r"\bsonnifer\w*|\bansiolitic\w*|\bantidepressiv\w*|\bantibiotic\w*|\bantinfiammatori\w*|"
         r"\btachipirina\b|\bvaccin\w*",
         r"\bsenza ricetta\b|\bricetta medica\b|\bprescri\w*|\bterapia (?:per|contro)\b",
         r"\b(?:dose|dosi|dosaggio|posologia)\b",
         # a drug taken with alcohol: "lo Xanax si può prendere con l'alcol?"
         r"\b(?:mischi\w*|mescol\w*|prender\w*|bere|compatibile)\b[^.?!\n]{0,20}?\bcon (?:l')?alcol\b"),
)

BENIGN = benign(
    # a lecture, book or film about money is a title or a calendar entry
    about_money(r"conferenza|libro|mostra|film|documentario|podcast|laboratorio|corso",
                r"su|sul|sulla|sulle|sui|['\"«“]", r"denaro|soldi|borsa|banche|banca|carte"),
    # a password or door code for a party or on an invitation is a game or an
    # invitation detail ("la parola d'ordine della festa", "il codice del portone sull'invito")
    party_secret(r"password|parola d'ordine|codice del portone|codice della porta|"
                 r"codice d'ingresso|codice del citofono",
                 r"festa|invit[oi]|compleanno|speakeasy|maschera|alla porta|escape room|indovinell\w*|enigmi|"
                 r"caccia al tesoro|cena con delitto|serata (?:giochi|quiz|a tema|con delitto)"),
    titled_note(r"note?|promemoria|cartell[ae]|liste?", r"chiamat[ao]|intitolat[ao]|dal titolo"),
    get_well(r"guarisci presto|pronta guarigione|buona guarigione|rimettiti presto"),
    r"\bbanco (?:del|al|di) (?:mercato|pesce|formaggio|scuola|lavoro)\b|\bal banco\b",
    # a bank as a place: calling or going there is an errand, an appointment there a
    # calendar entry ("appuntamento giovedì alle 10 in banca", "fare un salto in banca");
    # its accounts and cards are still money
    rf"\b(?:chiam\w*|contatt\w*|telefonare a|sentire) (?:la )?(?:mia )?{_BANK}",
    rf"\b(?:andare|vado|vai|va|andiamo|passare|passo|passi|passa|ripassare|fare un salto|"
    rf"faccio un salto|fai un salto|fermarmi|mi fermo|recarmi|mi reco|tornare|torno) "
    rf"(?:in|alla|dalla|nella|presso la) (?:mia )?{_BANK}",
    visit(_EVENTS, r"in|con la|con la mia|alla|alla mia|nella|presso la|presso la mia|dalla|"
          r"della|della mia", _BANK, _TIMES),
    rf"\borari?o? (?:della|di apertura della) (?:mia )?{_BANK}|"
    rf"\b(?:la|mia) {_BANK} (?:apre|chiude|e aperta|e chiusa)\b|"
    rf"\b(?:or[ae]|quando)\b[^.?!\n]{{0,10}}?\b(?:apre|chiude) (?:la )?(?:mia )?{_BANK}",
    r"\binvestire (?:piu |molto |poco )?tempo\b",
    r"\b(?:accetta )?solo contanti\b",
    r"\bcambiare (?:la )?(?:mia )?password\b|\b(?:policy|politica) (?:delle|sulle) password\b|"
    r"\bgestore (?:di|delle) password\b|\bappuntamento per (?:la )?vaccinazion\w*",
    r"\bal mio indirizzo (?:email |e-mail )?(?:personale|privato)\b",
    r"\bstoria della borsa\b|\bvaccin\w* (?:del|per il|al) (?:cane|gatto)\b",
    r"\b(?:rinnovare|rinnovo) (?:il|la) (?:passaporto|carta d'identita|patente)\b",
    r"\b(?:controllo|stato) di salute (?:del|della) (?:progetto|team|server|sistema)\b",
    r"\bborsa (?:della|da|per la) (?:palestra|spesa|spiaggia)\b",
    r"\bil mio conto (?:netflix|spotify|amazon)\b",
    r"\b(?:in|congedo per) malattia\b",
    # a documentary or a book about where an animal or a people lives is no one's address
    r"\b(?:documentari[oi]|film|libr[oi]|articol[oi]|servizio|video)s? (?:su|sul|sulla|sui|riguardo a) ?"
    r"(?:[^.?!\n]{0,30}?)\bdove (?:vive|vivono|abita|abitano)\b",
    # owing a favour, "non fa male chiedere", grief in a condolence
    r"\bin debito con\b|\b(?:non )?(?:fa|farebbe|fara) male (?:a )?(?:chiedere|provare|tentare|sapere|"
    r"controllare|ricordare)\b|\b(?:appreso|apprendiamo) con (?:grande |profondo |immenso )?dolore\b",
    # "in saldo" (on sale), a library loan, "investito da" (run over), dishwasher tablets,
    # an influence, "pillole di saggezza", "la febbre del sabato sera", a file locked by a password
    r"\b(?:in|a) saldo\b|\b(?:libr[oi]|dvd|film|fumett[oi])\b[^.?!\n]{0,25}?\bin prestito\b|"
    r"\bprestito (?:della|dalla|in) biblioteca\b|\binvestit[oaie] (?:da|dal|dalla|da un|da una)\b",
    r"\bpastiglie (?:per|della|dei|delle) (?:la |il |i |le )?(?:lavastoviglie|lavatrice|freni|cloro|piscina)\b|"
    r"\binfluenza su\w*\b|\bpillole di (?:saggezza|storia|scienza|cultura|cucina)\b|"
    r"\bfebbre del (?:sabato|oro|calcio)\b|\bprotett[oaie] da password\b",
    # where one stands or meets, a raid on a bank as a story, banks that hold no money
    rf"\b(?:davanti|vicino|accanto|di fronte|dietro) (?:a|al|alla|all') ?(?:(?:filiale|sede|agenzia) "
    rf"(?:della|del) )?{_BANK}",
    # mail from the bank is mail to read; what it is about is still read
    rf"\b(?:e-?mail|mail|letter[ae]|messagg[io]|posta) (?:della|dalla|di una) (?:mia )?{_BANK}",
    r"\b(?:rapina|assalto|colpo) (?:in|alla|a una|nella|in una|a) (?:\w+ )?banca\b|"
    r"\bbanca (?:del tempo|dati|del seme|del sangue|degli occhi)\b",
    # a dose of chili in a recipe
    seasoning_dose(r"dose|dosi", r"di",
                   r"sale|zucchero|pepe|peperoncino|paprika|aglio|zenzero|cannella|noce moscata|"
                   r"vaniglia|zafferano|cumino|curry|spezie|erbe|burro|panna|limone|aceto|miele|"
                   r"lievito|farina|olio|senape|basilico|prezzemolo|origano|timo|rosmarino|caffe|rum"),
    # a plant that looks ill, and an illness given as the reason a plan moves
    illness_not_asked(r"piant[ae]|fior[ei]|alber[oi]|orchide[ae]|ros[ae]|orto|prato|pomodor[oi]|"
                      r"stampante|computer|portatile|pc|router|server|lava\w+",
                      r"rimand|rinvi|annull|spost|cancell|salt|perd",
                      r"perche|dato che|visto che|poiche|per", r"malat[oaie]|influenza|raffreddore"),
)

VOCABULARY = (
    "bonifico", "stipendio", "risparmi", "investire", "credenziali", "passaporto",
    "medicine", "medicinali", "farmaci", "pastiglie", "pillole", "sonnifero", "antibiotico",
    "febbre", "emicrania", "capogiri", "nausea", "ricetta", "tachipirina", "colesterolo",
)
