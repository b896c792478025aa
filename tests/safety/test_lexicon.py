"""A bank named as a place is not a money request; its accounts, cards and charges are.

The sentences are written for these tests, apart from every eval set (the last test
checks that none of them is a row of the safety set or a measurement request).
"""

from __future__ import annotations

import re

import pytest

from botpsy.safety.config import Domain
from botpsy.safety.languages import visit
from botpsy.safety.policy import ScopePolicy, classify
from botpsy.types import ToolCall

M = Domain.money

# An appointment, meeting or visit at a bank, a calendar entry or a reminder to go there,
# its opening hours: a place, like the dentist's.
BANK_AS_PLACE = [
    ("en", "I have an appointment at the bank on Thursday at 11"),
    ("en", "Pencil in coffee with my bank advisor on Monday at 9:30, she wants to say hi"),
    ("en", "remind me to swing by the bank after lunch"),
    ("en", "Block Friday morning for the bank's open day"),
    ("en", "add a bank appointment for next Wednesday"),
    ("en", "I'm heading over to the bank, move my 2pm"),
    ("en", "Does the bank open on Saturdays? Add it to my errands note"),
    ("en", "Set up a video call with my bank for Wednesday at 4pm"),
    ("de", "Trag mir den Termin am Donnerstag um 14 Uhr bei der Sparkasse ein"),
    ("de", "Erinnere mich Mittwochmittag, dass ich zur Postbank radeln muss"),
    ("de", "Ich muss Freitag früh noch bei der Volksbank vorbei"),
    ("de", "Beratungsgespräch mit meiner Bank nächste Woche eintragen"),
    ("de", "Die Weihnachtsfeier der Sparkasse ist am 12. Dezember, bitte in den Kalender"),
    ("de", "Wann hat die Bank am Samstag offen?"),
    ("de", "Trag ein Telefonat mit der Sparkasse am Montag um 9 ein"),
    ("fr", "Note un rendez-vous jeudi à 15h à la banque"),
    ("fr", "Rappelle-moi de faire un saut à la banque demain matin"),
    ("fr", "Ajoute la soirée de la Banque Populaire à mon agenda"),
    ("fr", "RDV avec mon conseiller bancaire lundi prochain, mets-le dans le calendrier"),
    ("fr", "À quelle heure ferme la banque samedi ?"),
    ("fr", "Planifie un appel avec ma banque mardi à 11h"),
    ("es", "Apunta una cita el jueves a las 11 en el banco"),
    ("es", "Recuérdame pasar por el banco antes de comer"),
    ("es", "Tengo una reunión con mi gestora del banco el lunes"),
    ("es", "¿A qué hora cierra el banco los sábados?"),
    ("es", "Agenda una llamada con el banco el viernes a las 12"),
    ("it", "Segna in calendario: riunione giovedì alle 10 alla Banca Etica con Sofia"),
    ("it", "Ricordami di fare un salto in banca quando esco dalla palestra"),
    ("it", "Metti in agenda la cena della Banca Sella venerdì"),
    ("it", "A che ora chiude la banca sabato?"),
    ("it", "Fissa una telefonata con la banca lunedì alle 9"),
    ("pt", "Marca uma reunião na sexta às 10h no banco"),
    ("pt", "Lembra-me de passar pelo banco amanhã de manhã"),
    ("pt", "Põe na agenda o almoço com o meu gestor do banco"),
    ("pt", "A que horas fecha o banco no sábado?"),
    ("pt", "Marca uma chamada com o banco na terça às 15h"),
]

# Money that names a bank stays money: its accounts, balances, loans, and contesting a
# charge (the call to the bank is an errand, asking for the money back is not).
BANK_AS_MONEY = [
    ("en", "transfer 200 from my bank account"),
    ("en", "after the gym, tell me how low my bank balance got"),
    ("en", "call my bank and dispute the charge"),
    ("en", "meeting at the bank to discuss my mortgage"),
    ("en", "how much do I owe the bank"),
    ("en", "visit the bank's app and tell me my balance"),
    ("en", "a call with the bank about my credit card limit"),
    ("de", "Sag mir nach dem Joggen, ob mein Kontostand bei der Sparkasse im Minus ist"),
    ("de", "Termin bei der Bank wegen meinem Kredit"),
    ("de", "Ruf die Bank an und reklamiere die Belastung von letzter Woche"),
    ("de", "Wie viel habe ich bei der Sparkasse?"),
    ("fr", "Appelle ma banque et conteste ce débit de 40 euros"),
    ("fr", "Ouvre un compte en banque pour Léa"),
    ("fr", "Rendez-vous à la banque pour mon prêt immobilier"),
    ("fr", "Ouvre ma banque en ligne"),
    ("es", "Llama al banco y reclama ese cargo de 30 euros"),
    ("es", "¿Cuánto tengo en el banco?"),
    ("es", "Cita en el banco para pedir un préstamo"),
    ("it", "Chiama la banca e contesta quel movimento"),
    ("it", "Quanto ho in banca?"),
    ("it", "Appuntamento in banca per il mutuo"),
    ("pt", "Liga ao banco e contesta essa cobrança"),
    ("pt", "Quanto tenho no banco?"),
    ("pt", "Consulta no banco para o empréstimo da casa"),
]

# What one goes to a bank to do decides: opening an account or taking cash out is money
# even where the bank is named as the place and no other word of the request is.
BANK_VISIT_FOR_MONEY = [
    ("en", "appointment at the bank to open an account for my son"),
    ("en", "appointment at the bank on Friday so I can sign the papers"),
    ("en", "go to the bank and withdraw 500 euros"),
    ("en", "remind me to cash the check from grandma at the bank"),
    ("de", "Morgen 300 Euro abheben, bevor wir zur Sparkasse gehen"),
    ("de", "Heb 200 € am Automaten ab"),
    ("fr", "Rendez-vous à la banque pour retirer 300 euros"),
    ("fr", "Passer à la banque pour ouvrir un compte à Léo"),
    ("es", "cita en el banco para abrir una cuenta"),
    ("es", "Apunta que el sábado tengo que sacar 200 euros"),
    ("it", "appuntamento in banca per aprire un conto"),
    ("it", "Ricordami di prelevare 100 euro"),
    ("pt", "reunião no banco para abrir uma conta"),
    ("pt", "Vou ao banco levantar 50 euros"),
    ("pt", "Lembra-me de descontar o cheque da avó"),
]


@pytest.mark.parametrize(("lang", "text"), BANK_AS_PLACE, ids=[t[:40] for _, t in BANK_AS_PLACE])
def test_a_bank_as_a_place_is_allowed(lang: str, text: str) -> None:
    decision = ScopePolicy().check_request(text)
    assert not decision.blocked, decision.summary()


@pytest.mark.parametrize(("lang", "text"), BANK_AS_MONEY, ids=[t[:40] for _, t in BANK_AS_MONEY])
def test_money_that_names_a_bank_stays_money(lang: str, text: str) -> None:
    assert ScopePolicy().check_request(text).domain is M


@pytest.mark.parametrize(("lang", "text"), BANK_VISIT_FOR_MONEY,
                         ids=[t[:40] for _, t in BANK_VISIT_FOR_MONEY])
def test_a_bank_visit_for_an_account_or_cash_is_money(lang: str, text: str) -> None:
    assert ScopePolicy().check_request(text).domain is M


def test_an_errand_for_something_else_stays_an_errand() -> None:
    assert not ScopePolicy().check_request("Remind me to call the bank to ask about opening hours"
                                           ).blocked
    assert not ScopePolicy().check_request("Deposit the kids at school at 8, then coffee at 9"
                                           ).blocked


# Event titles the model writes for such a request: terse, the link left out.
EVENT_TITLES = ["Bank appointment", "Meeting: bank", "Sparkasse Termin", "Termin Sparkasse",
                "Rendez-vous banque", "Cita banco", "Appuntamento banca", "Reunião banco"]


@pytest.mark.parametrize("title", EVENT_TITLES)
def test_a_calendar_entry_for_the_bank_may_be_written(title: str) -> None:
    call = ToolCall(name="create_event", arguments={"title": title, "start": "2027-01-12T10:00"})
    assert not ScopePolicy().check_call(call).blocked


def test_a_title_naming_a_banking_act_is_still_refused() -> None:
    call = ToolCall(name="create_event", arguments={"title": "bank transfer appointment"})
    assert ScopePolicy().check_call(call).domain is M


def test_the_place_excuses_the_bank_and_nothing_beside_it() -> None:
    """The appointment's span ends at the bank: the mortgage after it is still found."""
    hits = classify("Lunch at the bank on Friday, then ask about my mortgage rate")
    assert [h.matched for h in hits] == ["mortgage"]
    hits = classify("an appointment at my bank account page")
    assert any(h.matched.startswith("bank") for h in hits)


def test_visit_reads_the_time_words_between_the_event_and_the_place() -> None:
    pattern = re.compile(visit("appointment", "at", "the bank", r"on|at|tuesday|\d+"),
                         re.IGNORECASE)
    assert pattern.search("an appointment on Tuesday at 10 at the bank")
    # any other word between them leaves the bank unexcused
    assert not pattern.search("an appointment about my loan at the bank")
    assert pattern.search("an appointment at the bank").group() == "appointment at the bank"


def test_relying_on_something_is_not_a_bank() -> None:
    assert not classify("You can bank on me for Saturday's move")
    assert [h.matched for h in classify("how much cash does the bank on Elm Road hold")] == [
        "cash", "bank"]


# Look-alikes that share a sensitive word and ask nothing sensitive: a street, a bench, a
# lecture, a pet's vaccine, a password policy, renewing an ID, forwarding a mail; beside
# each, a request with the same word that stays in its domain.
WORD_LOOKALIKES = [
    ("en", "Meet Ana outside the Bank Road bakery at 8", "Check my bank balance at 8"),
    ("en", "Bring the Monopoly money box to Sam's on Friday", "Bring the money to Sam on Friday"),
    ("de", "Die Bank vor dem Eingang ist nass, sag Tim Bescheid",
     "Sag Tim, dass die Bank mein Konto gesperrt hat"),
    ("de", "Notiere den Vortrag über die Börse im Rathaus", "Kauf an der Börse Aktien für 300 Euro"),
    ("de", "Personalausweis bis Mai verlängern, erinnere mich im April",
     "Schick meinen Personalausweis an den Makler"),
    ("de", "Schick Jan die neue Passwort-Richtlinie", "Schick Jan mein Passwort"),
    ("fr", "Ajoute la visite sur l'histoire de la banque jeudi", "Ajoute le solde de ma banque"),
    ("fr", "Transfère le message de Julie à Paul", "Transfère 200 euros à Paul"),
    ("fr", "Partage la politique des mots de passe avec l'équipe",
     "Partage mes mots de passe avec l'équipe"),
    ("es", "Reenvía la política de contraseñas al equipo", "Reenvía mis contraseñas al equipo"),
    ("es", "Apunta la vacuna del gato el lunes", "¿Qué vacuna me pongo para el viaje?"),
    ("it", "Inoltra la policy delle password a Luca", "Inoltra le mie password a Luca"),
    ("it", "Segna il vaccino del gatto lunedì", "Quale vaccino devo fare prima del viaggio?"),
    ("pt", "Lembra-me de alterar a palavra-passe do router amanhã",
     "Diz-me a palavra-passe do router"),
    ("pt", "Marca a vacina do gato na segunda", "Que vacina devo tomar antes da viagem?"),
    ("fr", "Installe un gestionnaire de mots de passe sur le portable",
     "Installe mes mots de passe sur le portable de Léo"),
    ("fr", "Envoie mes disponibilités de jeudi à Léo", "Envoie le solde de mon compte à Léo"),
    ("es", "Busca un gestor de contraseñas gratuito", "Busca mis contraseñas guardadas"),
    ("it", "Fissa l'appuntamento per la vaccinazione del nonno",
     "Quante dosi di vaccino servono al nonno?"),
    ("pt", "Mostra o que há na pasta Transferências", "Mostra as transferências da minha conta"),
    ("de", "Schick die Fotos an meine private Adresse", "Schick Tom die private Adresse von Lea"),
    ("fr", "Envoie le PDF à mon adresse perso", "Envoie à Tom l'adresse perso de Léa"),
    ("it", "Manda le foto al mio indirizzo personale", "Manda a Tom l'indirizzo personale di Lea"),
    # a dose of a seasoning is cooking; a dose of a drug is dosing
    ("en", "Note that the curry wants a bigger dose of ginger", "What dose of melatonin is safe?"),
    ("de", "Der Teig braucht eine Dosis Zimt mehr", "Welche Dosis Ibuprofen ist okay?"),
    ("fr", "Ajoute une dose de cannelle dans la pâte", "Quelle dose de Doliprane pour un enfant ?"),
    ("es", "Pon una dosis de canela en el bizcocho", "¿Qué dosis de ibuprofeno puedo tomar?"),
    ("it", "Metti una dose di cannella nell'impasto", "Che dose di tachipirina posso prendere?"),
    ("pt", "Põe uma dose de canela no bolo", "Que dose de ibuprofeno posso tomar?"),
    # a bench, a raid in a story, a place to meet, mail from the bank, a bank of time
    ("en", "Add the bank heist podcast to my listening list", "Add my bank login to the list"),
    ("en", "Meet Jo in front of the bank at noon", "Meet Jo at noon and move my bank loan"),
    ("en", "Any letters from the bank this week? Just list them",
     "Any letters from the bank about my mortgage? Read me the rate"),
    ("de", "Treffen wir uns neben der Sparkasse um 12?", "Wie hoch ist mein Dispo bei der Sparkasse?"),
    ("es", "Compra otro banco para la terraza", "Compra acciones del banco para la jubilación"),
    ("it", "Ci vediamo davanti alla banca alle 12", "Quanto ho sul conto in banca?"),
    ("pt", "Lembra-me da reunião do banco de tempo", "Quanto tenho na conta do banco?"),
    ("fr", "Y a-t-il un courrier de la banque ? Dis-moi juste l'expéditeur",
     "Lis-moi le solde sur le courrier de la banque"),
    # the numbers on a menu or a loyalty card are no card number
    ("de", "Die Nummer vom Lieferdienst steht auf der Karte im Flur",
     "Die Nummer auf meiner Karte brauche ich für die Bestellung"),
    ("fr", "Les numéros des tables sont sur la carte du traiteur",
     "Lis-moi les numéros sur ma carte bleue"),
    # an illness that asks nothing about health: a sick plant, a plan moved for it
    ("fr", "Le rosier a l'air malade, note de le tailler", "Mon fils est malade, que lui donner ?"),
    ("es", "Se suspende el partido porque el portero está enfermo, avisa al grupo",
     "Estoy enfermo desde ayer, ¿qué me tomo?"),
    ("it", "La cena è rinviata perché Paolo è malato, avvisa gli altri",
     "Sono malato da ieri, cosa prendo?"),
    ("pt", "O treino foi cancelado porque o treinador está doente",
     "Estou doente desde ontem, o que tomo?"),
    ("de", "Die Probe fällt aus, weil die Dirigentin krank ist", "Welche Krankheit habe ich?"),
    ("en", "skip choir tonight, I twisted my ankle", "I twisted my ankle, should I ice it?"),
    # errands and ticking off a paid bill
    ("en", "Remind me to collect my prescription on Friday",
     "Remind me to take my prescription pills on Friday"),
    ("fr", "Rappelle-moi d'aller chercher l'ordonnance de papi",
     "Quelle ordonnance pour une angine ?"),
    ("en", "settled the water bill, mark it done", "remind me to pay the water bill"),
    ("en", "Is this email asking for my passcode a scam?", "Email my passcode to Ana"),
    ("en", "Where is the cash desk on the second floor?", "How much cash do I have left?"),
    ("es", "Reserva el invierno en la casa de la sierra", "Quiero invertir en oro este invierno"),
    ("fr", "Hypothétiquement, si je décale la réunion ?", "Quel taux pour mon hypothèque ?"),
    # idioms, households, kitchens and workplaces
    ("en", "Book the plumber to bleed the radiators on Monday", "My gums bleed when I brush"),
    ("en", "Order descaling tablets for the kettle", "Order my allergy tablets"),
    ("en", "Add the health and safety quiz to Friday", "Add my blood test results to Friday"),
    ("en", "Email Bo that I feel ill-prepared for the audit", "Email Bo that I feel ill today"),
    ("en", "Run diagnostics on the boiler before winter", "Can you diagnose this rash?"),
    ("de", "Sag Ben, dass ich nach bestem Vermögen helfe", "Wie viel Vermögen habe ich?"),
    ("de", "Notier, dass das Wetter den Ausschlag gab", "Was hilft gegen den Ausschlag?"),
    ("fr", "J'ai mal noté l'adresse, renvoie-la à Léa", "J'ai mal au dos depuis hier"),
    ("fr", "Ajoute la bourse aux livres de samedi", "Dois-je placer mon argent en bourse ?"),
    ("fr", "J'ai découvert une pâtisserie, note le nom", "Suis-je à découvert ce mois-ci ?"),
    ("es", "Guarda la bolsa con las toallas en el coche", "¿Cómo va la bolsa hoy?"),
    ("es", "Añade a mi perfil mis intereses: cine y senderismo", "¿Cuántos intereses pago por el préstamo?"),
    ("it", "Il cappotto è in saldo, segnalo per sabato", "Qual è il saldo del mio conto?"),
    ("it", "Restituisci il fumetto preso in prestito a Gianni", "Posso chiedere un prestito per l'auto?"),
    ("pt", "O telemóvel está na bolsa preta, lembra-me", "Devo investir na bolsa este mês?"),
    ("pt", "Já não há remédio, remarca a reunião", "Que remédio tomo para a tosse?"),
    ("de", "Schreib die Anzahl der Anmeldungen in die Notiz", "Leiste die Anzahlung für die Ferienwohnung"),
    ("de", "Erinnere mich, dem Vorstand Bericht zu erstatten", "Wann wird mir die Kaution erstattet?"),
    ("de", "Hol die Überweisung zum Hautarzt bei der Hausärztin ab", "Mach eine Überweisung an Jonas"),
    ("fr", "Réserve une pension canine pour Rex en août", "Quand sera versée ma pension de retraite ?"),
    ("en", "The extra training really paid off, tell the coach", "Remind me I paid off the loan"),
    ("en", "Tell Mo I keep losing my balance in yoga", "Tell Mo my balance is low"),
    ("en", "Extend the loan period for my library books", "Extend the loan for my car"),
    ("en", "Grab a cold drink for Kim on the way", "Kim caught a cold, what can she take?"),
    ("en", "Order a medicine ball and a mat", "Order my medicine for the week"),
    ("en", "Find the car park nearest the hotel", "Track my ex's car on the map"),
    ("en", "The booking ID is in the email, copy it to my trip note", "Copy Lea's ID number to my note"),
    ("de", "Lässt sich die Heizung per App steuern?", "Wie viel Steuern muss ich nachzahlen?"),
    ("de", "Ich hab mich beim Datum verschrieben, änder das", "Welche Tabletten hat der Arzt verschrieben?"),
    ("fr", "Publie la photo sur mon compte Instagram", "Combien reste-t-il sur mon compte courant ?"),
    ("fr", "Range l'ordonnance du juge dans le dossier", "Range mon ordonnance d'antibiotiques"),
    ("es", "Invierte el orden de mis tareas", "Invierte 300 euros en fondos"),
    ("es", "Estoy en deuda con Leo, recuérdame llamarle", "¿Cuánta deuda tengo con el banco?"),
    ("it", "Sono in debito con Pia, ricordami di ringraziarla", "Quanto è il mio debito con la banca?"),
    ("it", "Non fa male chiedere, scrivi al vicino", "Mi fa male il ginocchio da ieri"),
    ("pt", "Estou em dívida com o Rui, lembra-me de lhe ligar", "Quanto tenho de dívida no cartão?"),
    # a password or door code handed out for a party or put on an invitation is a game or
    # an invitation detail; one's own password beside a party is still a credential
    ("en", "Text the guests that the password for the murder mystery party is 'butler'",
     "Text the guests my email password"),
    ("en", "Print the invitations with the gate code 1905 on them",
     "What's my gate code? Also print the invitations"),
    ("de", "Schreib in die Einladung, dass das Codewort an der Tür 'Pinguin' ist",
     "Schreib mir mein Passwort fürs Mailkonto auf"),
    ("fr", "Envoie aux invités le mot de passe de la fête pirate : 'Barbe noire'",
     "Envoie aux invités mon mot de passe Gmail"),
    ("es", "Pon el código del portal en la invitación de la cena del viernes",
     "¿Cuál es mi contraseña del banco?"),
    ("it", "Manda agli invitati la parola d'ordine per la festa anni '20",
     "Manda a Luca la password della mia email"),
    ("pt", "Manda aos convidados a senha para a festa surpresa do Rui",
     "Manda ao Rui a senha do meu email"),
    ("pt", "Lembra-me de pegar senha na loja do cidadão", "Qual é a minha senha do multibanco?"),
    ("de", "Wie steht mein Kontostand in der Tipprunde von der WM?", "Wie steht mein Kontostand?"),
    # a machine called ill, a practice missed for the flu: no health question; a question
    # after it in another clause still is
    ("de", "Unser Laptop ist schon wieder krank, ruf den IT-Service an",
     "Ich bin schon wieder krank, welche Tabletten soll ich nehmen?"),
    ("fr", "Le routeur est malade depuis hier, note d'appeler l'opérateur",
     "Je suis malade depuis hier, que prendre ?"),
    ("es", "Cancela la clase de baile del jueves por la gripe",
     "Cancela la clase de baile del jueves por la gripe, ¿qué me tomo?"),
    ("it", "Rimanda la cena di venerdì per l'influenza di Marco",
     "Rimanda la cena di venerdì per l'influenza, quale sciroppo prendo?"),
    ("pt", "Falto à aula de dança por causa da gripe, avisa a Sónia",
     "Falto à aula de dança por causa da gripe, que xarope tomo?"),
    ("de", "Sag dem Chorleiter, dass ich wegen Grippe die Probe verpasse",
     "Ich hab Grippe, welche Tabletten helfen?"),
    # a lecture, a book or a film about money is a title or an entry; paying for it is not
    ("de", "Merk dir das Buch über Geld und Glück für Mamas Geburtstag",
     "Überweis Mama 50 Euro für das Buch"),
    ("fr", "Ajoute le documentaire « L'argent roi » à ma liste", "Ajoute l'argent de mon livret à ma liste"),
    ("es", "Apunta el taller sobre el dinero y los niños del sábado",
     "Compra el libro del taller con mi tarjeta de crédito"),
    ("it", "Segna il corso sulla borsa per principianti in agenda",
     "Investi 300 euro in borsa per i principianti"),
    ("pt", "Guarda o documentário 'Dinheiro fácil' na lista", "Guarda o dinheiro fácil na conta poupança"),
]


@pytest.mark.parametrize(("lang", "lookalike", "sensitive"), WORD_LOOKALIKES,
                         ids=[t[:40] for _, t, _ in WORD_LOOKALIKES])
def test_a_word_s_look_alike_is_allowed_and_the_word_itself_is_not(
        lang: str, lookalike: str, sensitive: str) -> None:
    assert not classify(lookalike), classify(lookalike)
    assert classify(sensitive)


def test_these_sentences_are_in_no_eval_set() -> None:
    from botpsy.evals.safety_set import load_full_set, measurement_requests, normal_text
    from botpsy.evals.safety_set_negatives import ordinary_requests

    evaluated = {normal_text(t) for t in measurement_requests()}
    evaluated |= {normal_text(i.text) for i in [*load_full_set(), *ordinary_requests()]}
    ours = [text for _, text in BANK_AS_PLACE + BANK_AS_MONEY + BANK_VISIT_FOR_MONEY]
    ours += [text for _, *pair in WORD_LOOKALIKES for text in pair]
    assert [t for t in ours if normal_text(t) in evaluated] == []
