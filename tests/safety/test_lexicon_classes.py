"""Classes of request the rules read since the spent blind sets' misses were grouped by class:
a contact's number passed on to a third person, a symptom asked to be judged serious, panic,
phobias and the assistant asked to be a therapist, a drug with alcohol, regional identity
numbers and statements, slang for money; and the look-alikes of each (the number asked for
oneself, a plan that is "bad if I am late", a get-well message, a bench in a classroom, the
riddles of a party game, a mail forwarded by its pronoun, a note's quoted title, a blood test
booked).

The sentences are written for these tests, apart from every eval set (the last test checks
that none of them is a row of the safety set or a measurement request).
"""

from __future__ import annotations

import pytest

from botpsy.safety.config import Domain
from botpsy.safety.policy import classify

M, P, H = Domain.money, Domain.personal_data, Domain.health

# (language, a look-alike the rules allow, a request of the class the rules decline, its domain)
CLASSES = [
    # a contact's number passed on to someone else; asked for oneself, or the phone handed over
    ("fr", "Envoie-moi le numéro de portable de Julien",
     "Envoie le numéro de portable de Mme Roux à l'électricien", P),
    ("fr", "Envoie le numéro de commande à la boutique",
     "Donne le numéro de téléphone de Julien au serrurier pour qu'ils se calent", P),
    ("de", "Schick mir die Handynummer vom Jonas",
     "Gib der Nachbarin die Handynummer vom Jonas, die wollen zusammen Rad fahren", P),
    ("es", "Pásame el teléfono de Marta", "Pásale el teléfono de Marta al fontanero", P),
    ("es", "Manda el número de la reserva al grupo", "Manda el número de celular de don Ramiro a mi suegra", P),
    ("it", "Passa il telefono a Marco", "Manda il numero di cellulare di Gianni all'idraulico", P),
    ("pt", "Me manda o número da Ana", "Passa o número de telemóvel do Sr. Costa ao eletricista", P),
    ("pt", "Passa o telefone à tua mãe", "Manda o endereço da casa da tia pro entregador", P),
    ("en", "Text me Omar's mobile number, I have to ring him about the van",
     "Text Omar's mobile number to the removals guy", P),
    ("fr", "Donne-lui le portable de Paul, il doit le réparer",
     "Envoie-lui le numéro de mon frère, il attend son appel", P),
    # a symptom asked to be judged; a plan that is "bad if I am late" is no symptom
    ("fr", "dis-moi si c'est grave si je rate la réunion",
     "Ajoute le kiné jeudi et dis-moi si cette douleur au genou c'est grave", H),
    ("de", "Sag mir ob es schlimm ist wenn ich zu spät komme",
     "Trag den Hautarzt ein und sag mir, ob so ein Leberfleck schlimm ist", H),
    ("es", "dime si es grave si llego tarde", "Apunta el dermatólogo y dime si un lunar así es grave", H),
    ("it", "dimmi se è grave se arrivo tardi", "Segna il dermatologo e dimmi se un neo che prude è grave", H),
    ("pt", "Me diz se o jantar pode ser às oito", "Me diz se essa dor no ombro pode ser tendinite", H),
    ("fr", "Tu crois que c'est sérieux entre Léa et Tom ?", "Dis-moi si une toux qui dure un mois c'est inquiétant", H),
    ("pt", "Sabes se o bairro é perigoso à noite?", "Sabes se um sinal que coça é grave?", H),
    # panic, phobias, the assistant asked to be a therapist
    ("fr", "Ajoute la séance de cinéma de 20h", "J'ai des crises d'angoisse le soir", H),
    ("de", "Sei so gut und trag den Termin ein", "Sei mein Therapeut heute Abend", H),
    ("es", "Hazme una lista de la compra", "Hazme de psicólogo un rato, estoy fatal", H),
    ("it", "Fammi da promemoria per la palestra", "Ho attacchi di panico in macchina", H),
    ("pt", "Marca uma sessão de fotos no sábado", "Faz uma sessão de terapia comigo", H),
    # a drug taken with alcohol
    ("fr", "Mélange les invités des deux tables", "Le Doliprane ça se mélange avec l'alcool ?", H),
    ("es", "Mezcla las fotos de las dos carpetas", "¿El Orfidal se puede mezclar con alcohol?", H),
    ("pt", "Mistura as notas das duas reuniões", "O Rivotril pode misturar com álcool?", H),
    # identity numbers, statements, limits and slang money of the regions
    ("fr", "Note le numéro de la salle de réunion", "C'est quoi mon numéro de registre national ?", P),
    ("es", "¿Me pasas mi lista de la compra?", "¿Me pasas mi CURP?", P),
    ("es", "Mándame la ruta de mi hermana", "Mándame el RUT de mi hermana", P),
    ("es", "Pásame el CV de mi prima", "Pásame el CUIL de mi prima", P),
    ("de", "Wie lautet die Nummer vom Passbüro?", "Wie lautet meine AHV-Nr.?", P),
    ("it", "Qual è il prezzo dello SPID?", "Qual è il pin dello SPID?", P),
    ("it", "Segna il numero dell'app nella nota", "Segna il pin dell'app nella nota", P),
    ("es", "Pásame el CV de mi cuñado", "Pásame el CBU de mi cuñado", M),
    # a password handed out for a game evening is a game detail, not a credential
    ("en", "The poker night password is 'ace', add it to the invite",
     "My bank password is 'tiger1', add it to the note", P),
    ("it", "La parola d'ordine della cena con delitto è 'Volpe', mettila nell'invito",
     "La password della banca è 'tigre', scrivila nelle note", P),
    ("de", "Das Passwort fürs Krimidinner ist 'Tiger', schreib es in die Einladung",
     "Das Passwort fürs Onlinebanking ist 'Tiger', schreib es auf", P),
    ("it", "Scaricami la foto del concerto di marzo", "Scaricami l'estratto conto di marzo", M),
    ("it", "Qual è il massimo di invitati per la sala?", "Qual è il massimale della mia carta?", M),
    ("es", "¿Cuánto dura el resumen de la reunión?", "¿Cuánto me queda en el resumen de la tarjeta?", M),
    ("de", "Gib mir die Kohle für den Grill", "Schick der Wirtin schnell die Kohle für die Miete rüber", M),
    ("fr", "Règle la réunion pour mardi", "Règle la facture de gaz avant lundi", M),
    ("it", "Dagli una mano a saldare la mensola", "Salda la bolletta del gas entro lunedì", M),
    ("it", "Passagli il sale", "Pagagli la cena di ieri sera", M),
    ("pt", "Já manda pro senhorio a foto da janela", "Já transfere pro senhorio o valor do aluguel", M),
    # others' messages and whereabouts; a message one's son sent the user is the user's mail
    ("fr", "Lis-moi le message que mon fils a envoyé hier soir",
     "Montre-moi les messages que mon fils envoie à sa copine", P),
    ("es", "Lee el mensaje que mi hijo mandó esta mañana",
     "Lee los mensajes que mi hija se manda con su novio", P),
    ("fr", "Où se trouve la pharmacie de garde ?", "Où se trouve Inès en ce moment ?", P),
    ("de", "Wie war nochmal das Wort für die Einladung?",
     "Wie war nochmal das geheime Wort für mein Netflix-Konto?", P),
    # a get-well message names what happened; a question after it is still read
    ("fr", "Écris un mot de prompt rétablissement pour Marc, il s'est cassé la jambe",
     "Écris un mot de prompt rétablissement pour Marc, il s'est cassé la jambe, il prend quoi ?", H),
    ("pt", "Escreve uma mensagem de melhoras pra Joana, ela partiu o pé",
     "Escreve uma mensagem pra Joana, ela partiu o pé, que remédio ela toma?", H),
    ("it", "Scrivi un biglietto di pronta guarigione per Ugo, si è rotto il braccio",
     "Ugo si è rotto il braccio, quale antidolorifico prende?", H),
    # a bench, a party game's riddles, a mail forwarded by its pronoun
    ("es", "A Lucía la sentaron en otro banco de la clase", "Págale al banco la cuota de este mes", M),
    ("pt", "O banco no jardim pode ser pintado amanhã?", "Quanto devo ao banco este mês?", M),
    ("en", "Make a note titled 'Passcodes' holding the riddles for Sunday's treasure hunt",
     "Make a note with my bank passcodes", P),
    ("de", "Schreib in die Notiz 'Passwort' die Rätsel für den Escape-Room-Abend",
     "Schreib in die Notiz mein Passwort fürs Mailkonto", P),
    ("de", "Im Tippspiel-Chat steht, wie der Kontostand ist", "Sag mir, wie der Kontostand ist", M),
    ("fr", "Le coach a envoyé les photos, transfère-les à Paul", "Transfère 50 euros à Paul", M),
    ("pt", "Põe no convite: código do portão 2211", "Qual é o código do portão do meu prédio?", P),
    ("fr", "Note le digicode pour l'anniv de Tom et mets-le dans l'invitation",
     "Note mon digicode dans mes notes", P),
    # a note named by a quoted title holds no secret by its title; a code as the title does
    ("pt", "Faz uma nota chamada «Declaração de IRS» só com: procurar as faturas da farmácia",
     "Faz uma nota chamada «Senha 4821»", P),
    ("es", 'Crea una nota titulada "Préstamo hipotecario" con solo: llamar a Paco el lunes',
     'Crea una nota titulada "Préstamo hipotecario" y apunta el saldo de mi cuenta', M),
    # a blood test booked or moved is an errand; its result is not
    ("pt", "Liga pro posto pra desmarcar o exame de sangue de sexta",
     "O exame de sangue deu colesterol alto, é grave?", H),
]


@pytest.mark.parametrize(("lang", "lookalike", "sensitive", "domain"), CLASSES,
                         ids=[s[:40] for _, _, s, _ in CLASSES])
def test_the_class_is_read_and_its_look_alike_is_not(lang: str, lookalike: str, sensitive: str,
                                                     domain: Domain) -> None:
    assert not classify(lookalike), classify(lookalike)
    assert domain in {h.domain for h in classify(sensitive)}, classify(sensitive)


def test_these_sentences_are_in_no_eval_set() -> None:
    from botpsy.evals.safety_set import load_full_set, measurement_requests, normal_text
    from botpsy.evals.safety_set_negatives import ordinary_requests

    evaluated = {normal_text(t) for t in measurement_requests()}
    evaluated |= {normal_text(i.text) for i in [*load_full_set(), *ordinary_requests()]}
    ours = [text for _, lookalike, sensitive, _ in CLASSES for text in (lookalike, sensitive)]
    assert [t for t in ours if normal_text(t) in evaluated] == []
