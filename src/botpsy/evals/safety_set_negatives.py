"""Ordinary assistant requests in six languages, for the scope classifier to learn from.

The labelled safety set holds sensitive requests and look-alikes that share their
words, but hardly any plain assistant work ("Do I have any unread emails?"), so a
classifier trained on it alone learnt that anything unlike its look-alikes is
sensitive. These negatives are generated, not written one by one: one request
template per tool of the assistant (``TOOLBOX_TYPES``) and language, filled with the
people, events, notes, reminders, files and mail subjects of the demo week
(``assistant/demo_content.py``). Demo items whose own text a scope rule flags
("Pay the electricity bill", ``personal/passwords.txt``) are left out, and so are
those about bills, orders, accounts or documents ("Invoice #2291 and next steps",
"Renew passport"), where a request could lean into a domain; so every generated
request is one the labelling convention calls ``none``.

They join the classifier's training rows only; the scenario, everyday and held-out
request sets stay measurement sets, and a test checks that no generated request
equals one of their requests or a row of the safety sets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from botpsy.assistant import demo_content as demo
from botpsy.assistant.toolsets import TOOLBOX_TYPES
from botpsy.evals.safety_set import NONE, SafetyItem, Split
from botpsy.safety.policy import classify

LANGUAGES = ("en", "de", "fr", "es", "it", "pt")
FILLS_PER_TEMPLATE = 2  # demo values each template is filled with

DAYS = {
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday"),
    "de": ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag"),
    "fr": ("lundi", "mardi", "mercredi", "jeudi", "vendredi"),
    "es": ("lunes", "martes", "miércoles", "jueves", "viernes"),
    "it": ("lunedì", "martedì", "mercoledì", "giovedì", "venerdì"),
    "pt": ("segunda", "terça", "quarta", "quinta", "sexta"),
}
HOURS = ("9", "11", "14", "16", "18")
_BORDERLINE = re.compile(r"invoice|bill|receipt|order|refund|sign-in|account|passport|benefit|sale",
                         re.IGNORECASE)

# tool -> (en, de, fr, es, it, pt); slots: {who} a first name, {email} an address,
# {event} an event title, {note} a note title, {rem} a reminder, {file} a file path,
# {subject} a mail subject, {day} a weekday, {hour} an hour of the day
TEMPLATES: dict[str, tuple[str, str, str, str, str, str]] = {
    "list_inbox": (
        "Anything new in my inbox since {day}?",
        "Zeig mir die neuesten Mails im Posteingang",
        "Montre-moi les derniers messages de ma boîte de réception",
        "Enséñame los últimos correos de la bandeja de entrada",
        "Fammi vedere le ultime mail in arrivo",
        "Mostra os últimos emails da caixa de entrada"),
    "search_mail": (
        "Find the emails {who} sent me last week",
        "Such die Mails von {who} aus dieser Woche",
        "Retrouve les mails que {who} m'a envoyés cette semaine",
        "Busca los correos que me mandó {who} esta semana",
        "Cerca le mail che mi ha mandato {who} questa settimana",
        "Procura os emails que o {who} me mandou esta semana"),
    "read_email": (
        "Open the mail \"{subject}\" and tell me what it says",
        "Öffne die Mail „{subject}“ und fass sie kurz zusammen",
        "Ouvre le mail « {subject} » et résume-le",
        "Abre el correo «{subject}» y resúmemelo",
        "Apri la mail «{subject}» e fammi un riassunto",
        "Abre o email «{subject}» e resume-o"),
    "draft_email": (
        "Draft an email to {who} asking if {day} at {hour} works for a quick call",
        "Schreib einen Entwurf an {who}: passt dir {day} um {hour} Uhr für ein kurzes Telefonat?",
        "Prépare un brouillon pour {who} : est-ce que {day} à {hour} h te va pour un appel ?",
        "Prepara un borrador para {who}: ¿te va bien el {day} a las {hour} para una llamada?",
        "Prepara una bozza per {who}: ti va bene {day} alle {hour} per una chiamata?",
        "Faz um rascunho para o {who}: dá jeito {day} às {hour}h para uma chamada?"),
    "send_email": (
        "Send {email} a short note that I'll bring the slides on {day}",
        "Schick {email} eine kurze Nachricht, dass ich die Folien am {day} mitbringe",
        "Envoie à {email} un petit mot : j'apporte les slides {day}",
        "Envía a {email} un mensaje corto: llevo las diapositivas el {day}",
        "Manda a {email} due righe: porto io le slide {day}",
        "Envia ao {email} uma mensagem curta: levo os slides na {day}"),
    "reply_email": (
        "Reply to the mail \"{subject}\" and say thanks, I'll look at it on {day}",
        "Antworte auf „{subject}“: danke, ich schaue es mir am {day} an",
        "Réponds au mail « {subject} » : merci, je regarde ça {day}",
        "Responde al correo «{subject}»: gracias, lo miro el {day}",
        "Rispondi alla mail «{subject}»: grazie, ci guardo {day}",
        "Responde ao email «{subject}»: obrigado, vejo isso na {day}"),
    "trash_email": (
        "Delete the newsletter \"{subject}\"",
        "Lösch die Mail „{subject}“, die brauche ich nicht mehr",
        "Mets le mail « {subject} » à la corbeille",
        "Manda a la papelera el correo «{subject}»",
        "Cestina la mail «{subject}»",
        "Manda o email «{subject}» para o lixo"),
    "list_events": (
        "What do I have on {day}?",
        "Was habe ich am {day} alles vor?",
        "Qu'est-ce que j'ai de prévu {day} ?",
        "¿Qué tengo el {day}?",
        "Che impegni ho {day}?",
        "O que tenho marcado na {day}?"),
    "create_event": (
        "Put \"{event}\" on my calendar for {day} at {hour}:00",
        "Trag „{event}“ am {day} um {hour} Uhr in den Kalender ein",
        "Mets « {event} » dans l'agenda {day} à {hour} h",
        "Pon «{event}» en el calendario el {day} a las {hour}",
        "Metti «{event}» in calendario {day} alle {hour}",
        "Põe «{event}» na agenda na {day} às {hour}h"),
    "update_event": (
        "Move \"{event}\" to {day} at {hour}",
        "Verschieb „{event}“ auf {day} um {hour} Uhr",
        "Décale « {event} » à {day} {hour} h",
        "Pasa «{event}» al {day} a las {hour}",
        "Sposta «{event}» a {day} alle {hour}",
        "Passa «{event}» para {day} às {hour}h"),
    "delete_event": (
        "Cancel \"{event}\" on {day}",
        "Sag „{event}“ am {day} ab und nimm es aus dem Kalender",
        "Annule « {event} » de {day}",
        "Cancela «{event}» del {day}",
        "Annulla «{event}» di {day}",
        "Cancela «{event}» de {day}"),
    "find_free_slots": (
        "When am I free for an hour on {day}?",
        "Wann habe ich am {day} eine Stunde frei?",
        "Quand est-ce que j'ai une heure de libre {day} ?",
        "¿Cuándo tengo una hora libre el {day}?",
        "Quando ho un'ora libera {day}?",
        "Quando tenho uma hora livre na {day}?"),
    "search_events": (
        "When is my next meeting with {who}?",
        "Wann treffe ich {who} das nächste Mal?",
        "Quand est mon prochain rendez-vous avec {who} ?",
        "¿Cuándo es mi próxima reunión con {who}?",
        "Quando ho il prossimo incontro con {who}?",
        "Quando é a minha próxima reunião com {who}?"),
    "search_everything": (
        "Do I have anything about \"{event}\" anywhere?",
        "Habe ich irgendwo etwas zu „{event}“?",
        "Est-ce que j'ai quelque chose sur « {event} » quelque part ?",
        "¿Tengo algo sobre «{event}» en algún sitio?",
        "Ho qualcosa su «{event}» da qualche parte?",
        "Tenho alguma coisa sobre «{event}» em algum lado?"),
    "search_contacts": (
        "Which of my contacts work with {who}?",
        "Such {who} in meinen Kontakten",
        "Cherche {who} dans mes contacts",
        "Busca a {who} en mis contactos",
        "Cerca {who} nei miei contatti",
        "Procura o {who} nos meus contactos"),
    "get_contact": (
        "What's {who}'s email address?",
        "Welche E-Mail-Adresse hat {who}?",
        "C'est quoi l'adresse mail de {who} ?",
        "¿Cuál es el correo de {who}?",
        "Qual è l'indirizzo email di {who}?",
        "Qual é o email do {who}?"),
    "add_contact": (
        "Add {who} to my contacts with the address {email}",
        "Leg {who} als Kontakt an, Adresse {email}",
        "Ajoute {who} à mes contacts avec l'adresse {email}",
        "Guarda a {who} en contactos con el correo {email}",
        "Salva {who} nei contatti con l'indirizzo {email}",
        "Guarda o {who} nos contactos com o email {email}"),
    "create_note": (
        "Make a note called \"{note}\" with the points from {day}'s meeting",
        "Leg eine Notiz „{note}“ an mit den Punkten vom {day}",
        "Crée une note « {note} » avec les points de la réunion de {day}",
        "Crea una nota «{note}» con los puntos de la reunión del {day}",
        "Crea una nota «{note}» con i punti della riunione di {day}",
        "Cria uma nota «{note}» com os pontos da reunião de {day}"),
    "search_notes": (
        "Which of my notes mention {who}?",
        "In welchen Notizen kommt {who} vor?",
        "Dans quelles notes je parle de {who} ?",
        "¿En qué notas sale {who}?",
        "In quali note compare {who}?",
        "Em que notas aparece o {who}?"),
    "read_note": (
        "Show me my note \"{note}\"",
        "Zeig mir die Notiz „{note}“",
        "Affiche ma note « {note} »",
        "Enséñame la nota «{note}»",
        "Fammi vedere la nota «{note}»",
        "Mostra-me a nota «{note}»"),
    "append_to_note": (
        "Add \"ask {who}\" at the end of my note \"{note}\"",
        "Häng „{who} fragen“ an die Notiz „{note}“ an",
        "Ajoute « demander à {who} » à la fin de la note « {note} »",
        "Añade «preguntar a {who}» al final de la nota «{note}»",
        "Aggiungi «chiedere a {who}» in fondo alla nota «{note}»",
        "Acrescenta «perguntar ao {who}» no fim da nota «{note}»"),
    "add_reminder": (
        "Remind me on {day} at {hour} to {rem_lower}",
        "Erinnere mich am {day} um {hour} Uhr: {rem}",
        "Rappelle-moi {day} à {hour} h : {rem}",
        "Recuérdame el {day} a las {hour}: {rem}",
        "Ricordamelo {day} alle {hour}: {rem}",
        "Lembra-me na {day} às {hour}h: {rem}"),
    "list_reminders": (
        "Which reminders are still open for {day}?",
        "Welche Erinnerungen sind für {day} noch offen?",
        "Quels rappels il me reste pour {day} ?",
        "¿Qué recordatorios tengo pendientes para el {day}?",
        "Quali promemoria ho ancora aperti per {day}?",
        "Que lembretes tenho por fazer para {day}?"),
    "complete_reminder": (
        "Done: \"{rem}\", tick it off",
        "Erledigt: „{rem}“, hak die Erinnerung ab",
        "C'est fait : « {rem} », coche le rappel",
        "Hecho: «{rem}», marca el recordatorio",
        "Fatto: «{rem}», segna il promemoria come completato",
        "Feito: «{rem}», marca o lembrete como concluído"),
    "list_files": (
        "What files do I have in {folder}?",
        "Welche Dateien liegen in {folder}?",
        "Quels fichiers il y a dans {folder} ?",
        "¿Qué archivos hay en {folder}?",
        "Che file ci sono in {folder}?",
        "Que ficheiros há em {folder}?"),
    "read_file": (
        "Open {file} and give me the gist",
        "Öffne {file} und sag mir, worum es geht",
        "Ouvre {file} et dis-moi ce qu'il contient",
        "Abre {file} y dime qué pone",
        "Apri {file} e dimmi cosa c'è scritto",
        "Abre {file} e diz-me o que tem"),
    "write_file": (
        "Save the agenda for {day} as notes/agenda_{day_lower}.md",
        "Speichere die Tagesordnung für {day} als notes/agenda_{day_lower}.md",
        "Enregistre l'ordre du jour de {day} dans notes/agenda_{day_lower}.md",
        "Guarda el orden del día del {day} en notes/agenda_{day_lower}.md",
        "Salva l'ordine del giorno di {day} in notes/agenda_{day_lower}.md",
        "Guarda a ordem de trabalhos de {day} em notes/agenda_{day_lower}.md"),
    "append_to_file": (
        "Add \"ask {who}\" to the bottom of notes/todo.md",
        "Schreib „{who} fragen“ unten in notes/todo.md",
        "Ajoute « demander à {who} » à la fin de notes/todo.md",
        "Añade «preguntar a {who}» al final de notes/todo.md",
        "Aggiungi «chiedere a {who}» in fondo a notes/todo.md",
        "Acrescenta «perguntar ao {who}» no fim de notes/todo.md"),
    "search_files": (
        "Which file mentions \"{event}\"?",
        "In welcher Datei steht etwas zu „{event}“?",
        "Quel fichier parle de « {event} » ?",
        "¿Qué archivo habla de «{event}»?",
        "Quale file parla di «{event}»?",
        "Que ficheiro fala de «{event}»?"),
}

# a second wording for tools whose demo data has more than one field people ask about
# (a contact's phone besides the address, who attends an event, a file's contents)
MORE_TEMPLATES: dict[str, tuple[str, str, str, str, str, str]] = {
    "get_contact": (
        "What's {who}'s phone number? I want to call",
        "Gib mir die Telefonnummer von {who}, ich ruf an",
        "Donne-moi le numéro de {who}, je l'appelle",
        "Dame el número de {who}, que la llamo",
        "Dammi il numero di {who}, lo chiamo io",
        "Dá-me o número do {who}, vou ligar-lhe"),
    "search_mail": (
        "Did I get anything from {who} about \"{event}\"?",
        "Hat {who} mir wegen „{event}“ geschrieben?",
        "Est-ce que {who} m'a écrit pour « {event} » ?",
        "¿Me ha escrito {who} sobre «{event}»?",
        "{who} mi ha scritto per «{event}»?",
        "O {who} escreveu-me sobre «{event}»?"),
    "list_events": (
        "Who's coming to \"{event}\" and where is it?",
        "Wer kommt zu „{event}“ und wo ist das?",
        "Qui vient à « {event} » et c'est où ?",
        "¿Quién va a «{event}» y dónde es?",
        "Chi viene a «{event}» e dove si fa?",
        "Quem vai a «{event}» e onde é?"),
    "complete_reminder": (
        "tick off \"{rem}\" on my list",
        "hak „{rem}“ auf meiner Liste ab",
        "coche « {rem} » dans ma liste",
        "tacha «{rem}» de mi lista",
        "spunta «{rem}» dalla lista",
        "risca «{rem}» da minha lista"),
    "read_file": (
        "What does {file} say about \"{event}\"?",
        "Was steht in {file} zu „{event}“?",
        "Que dit {file} sur « {event} » ?",
        "¿Qué dice {file} sobre «{event}»?",
        "Cosa dice {file} su «{event}»?",
        "O que diz {file} sobre «{event}»?"),
}


@dataclass(frozen=True)
class DemoValues:
    """The slot values of the demo week, without items a scope rule flags."""

    who: tuple[str, ...]
    email: tuple[str, ...]
    event: tuple[str, ...]
    note: tuple[str, ...]
    rem: tuple[str, ...]
    file: tuple[str, ...]
    folder: tuple[str, ...]
    subject: tuple[str, ...]


def _plain(texts) -> tuple[str, ...]:
    """Distinct texts, in order, that no scope rule puts in a domain and that are not
    about bills, orders, accounts or documents."""
    return tuple(t for t in dict.fromkeys(texts) if not classify(t) and not _BORDERLINE.search(t))


def demo_values() -> DemoValues:
    # people (not a school or a helpdesk): their address starts with their first name
    people = [c for c in demo.CONTACTS
              if c.email and c.email.startswith(c.name.split()[0].lower())]
    files = _plain(f.path for f in demo.FILES if not f.attack)
    return DemoValues(
        who=_plain(c.name.split()[0] for c in people), email=_plain(c.email for c in people),
        event=_plain(e.title for e in demo.EVENTS), note=_plain(n.title for n in demo.NOTES
                                                               if not n.attack),
        rem=_plain(r.text for r in demo.REMINDERS), file=files,
        folder=tuple(dict.fromkeys(f.rsplit("/", 1)[0] for f in files)),
        subject=_plain(m.subject for m in demo.EMAILS if not m.attack))


def _fills(values: DemoValues, lang: str, n: int, start: int) -> list[dict[str, str]]:
    """``n`` slot assignments, each slot stepping through its values from ``start``."""
    fills = []
    for k in range(start, start + n):
        fill = {slot: items[k % len(items)] for slot, items in vars(values).items()}
        day = DAYS[lang][k % len(DAYS[lang])]
        fill.update(day=day, day_lower=day.lower(), hour=HOURS[k % len(HOURS)],
                    rem_lower=fill["rem"][:1].lower() + fill["rem"][1:])
        fills.append(fill)
    return fills


def ordinary_requests(fills: int = FILLS_PER_TEMPLATE) -> list[SafetyItem]:
    """Every template of every language filled ``fills`` times (distinct requests
    only), labelled ``none`` in the tuned split."""
    values = demo_values()
    texts: dict[str, str] = {}
    for t, templates in enumerate([*TEMPLATES.values(), *MORE_TEMPLATES.values()]):
        for lang, template in zip(LANGUAGES, templates, strict=True):
            for fill in _fills(values, lang, fills, start=t):
                texts.setdefault(template.format(**fill), lang)
    return [SafetyItem(text=text, label=NONE, lang=lang, split=Split.tuned)
            for text, lang in texts.items()]


def tools_without_templates() -> list[str]:
    """Assistant tools with no template (a new tool should get one)."""

    return [name for box in TOOLBOX_TYPES for name in box.traits() if name not in TEMPLATES]

