"""Spanish rules of the scope lexicon (accents folded: "contraseña" is "contrasena").

"Banco" is a bank and a bench, "receta" a prescription and a recipe, "cuenta" an
account, a bill and a story: such words decide only with their context.
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
    r"un|una|uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|veinte|treinta|cuarenta|"
    r"cincuenta|sesenta|cien|ciento|doscientos|trescientos|quinientos|mil"
)
_AMOUNT = amount(_NUMBERS)
_MY = r"(?:mi|mis|nuestra|nuestro|nuestras|nuestros)"
_OTHER = (
    r"(?:"
    r"(?:mi|mis|el|la|los|las|su|sus|nuevo|nueva|\s)+ ?(?:ex\w*|vecin\w*|jef\w*|companer\w*|"
    r"casero|casera|novi\w*|marido|mujer|esposo|esposa|pareja|hij\w*|herman\w*|colega\w*)|"
    r"(?:el senor|la senora|don|dona|sr\.|sra\.) (?-i:[A-Z])\w+"
    r")"
)
_BODY = (
    r"cabeza|garganta|barriga|tripa|estomago|espalda|muelas?|dientes?|oidos?|ojos?|pecho|"
    r"piernas?|brazos?|pies?|rodillas?|cuello|hombros?|munecas?|tobillos?|cadera|piel|corazon"
)

# A bank as a place: "en el Banco Santander", "con mi banco" (a bench is excused apart).
_BANK = r"(?:\w+ )?bancos?\b" + not_for(
    r"para|y|a", r"abrir|cerrar|sacar|retirar|ingresar|depositar|cobrar|firmar")
_EVENTS = (
    r"citas?|reunion(?:es)?|llamadas?|visitas?|entrevistas?|turnos?|eventos?|charlas?|encuentros?|"
    r"quedadas?|desayunos?|comidas?|cenas?|talleres|taller|jornadas?|fiestas?"
)
_TIMES = (
    r"el|la|las|los|a|de|por|hoy|manana|pasado manana|tarde|noche|mediodia|semana|que viene|"
    r"proximo|proxima|este|esta|" + day_names("es") + "|"
    r"\d{1,2}(?:[:.]\d\d)?|\d{1,2}h"
)

# A phone number, for a contact's number passed on
_PHONE = r"(?:numero de )?(?:telefono|celular|movil|whatsapp)"

RULES = (
    rule(M, TRANSFER,
         r"\btransferencias?\b|\btransfier\w*|\btransferir\b|\bdomiciliaci\w*|\bingreso en\b",
         # taking cash out or paying it in: "sacar 200 euros", "ingresar un cheque"
         rf"\b(?:saca|sacar|sacarme|sacame|retir\w*|ingres\w*|deposit\w*|cobr\w*)\b[^.?!\n]{{0,8}}?(?:{_AMOUNT}|\bcheques?\b|"
         rf"\befectivo\b)",
         rf"\b(?:manda\w*|envia\w*|transfiere\w*|presta\w*|deja\w*|da|dale|devuelve\w*|dona|donar|done|"
         rf"pasa\w*|paga\w*)\b[^.?!\n]{{0,40}}?(?:{_AMOUNT}|\bdinero\b)"),
    rule(M, PAYMENT,
         r"\bpag(?:ar|o|a|as|ue|uen|ues|ad|amos|ando|ado|os)\b",
         # paying someone, the pronoun joined to the verb: "págale al casero"
         r"\bpaga(?:le|les|selo|sela|selos|selas)\b|\bpagarle(?:s)?\b",
         # money lent or owed: "devuélvele lo que me prestó", "lo que le debo"
         r"\bdevuelve\w*\b[^.?!\n]{0,25}?\b(?:lo que|el dinero)\b|\blo que (?:me|te|le|les) "
         r"(?:debo|debes|debe|presto|prestaste|dejo)\b",
         r"\breembols\w*|\bbizum\w*",
         # contesting a charge is asking for money back: "reclama ese cargo"
         r"\b(?:reclam|disput|impugn)\w* (?:un|el|ese|este|una|la|esa|esta) (?:\w+ )?"
         r"(?:cargo|cobro|movimiento|transaccion)\b"),
    rule(M, BANKING,
         rf"\bcuentas? (?:corriente|bancaria|de ahorro\w*|nomina|conjunta)\b|\ben {_MY} cuenta\b"
         # an account with a service is no bank account ("en mi cuenta de Instagram")
         rf"(?! de (?:instagram|twitter|x|facebook|tiktok|netflix|spotify|amazon|google|correo|gmail|email|e-mail|usuario|steam|youtube|linkedin|zoom|icloud|dropbox|github|ebay|wallapop))",
         r"\bsaldo\b|\bbancos?\b|\bbancari\w*|\bprestamos?\b|\bhipoteca\w*|\bcredito\b|"
         r"\bintereses\b|\bdeudas?\b|\btarjetas? (?:de credito|de debito|bancaria)\b",
         # a card's or an account's statement and limit: "el resumen de la tarjeta"
         rf"\b(?:resumen|extracto|limite|cupo) (?:de|del) (?:la |{_MY} )?(?:tarjeta|cuenta)\b|"
         r"\bextractos? bancarios?\b|\bestado de cuenta\b",
         r"\bdeclaracion de (?:la )?renta\b|\bimpuestos\b|\bhacienda\b"),
    rule(M, INCOME, r"\bmi nomina\b|\bla nomina\b(?! (?:della|di|a|del nuovo))|\bnominas\b|\bsueldo\b|\bsalario\b|\b(?:mis|nuestros) ingresos\b"),
    rule(M, CRYPTO, r"\bcriptomonedas?\b|\bcriptos?\b|\bcriptoactivos?\b"),
    rule(M, INVESTMENT,
         r"\binvert(?:ir|ido)\b|\binvier(?!no)\w*|\binversion\w*|\binversor\w*|\bacciones (?:de|del)\b|"
         r"\b(?:comprar|vender|mantener)\b[^.?!\n]{0,20}?\bacciones\b|\ben bolsa\b|\bla bolsa\b(?! de)|"
         r"\bfondos? (?:de inversion|indexados?)\b|\bdividendos?\b|\bahorros\b|\bplan de pensiones\b"),
    rule(M, MONEY, r"\bdinero\b|\bguita\b"),
    # --- personal data ---
    rule(P, CREDENTIALS,
         r"\bcontrase[nñ]as?\b|\bclaves? (?:de acceso|del banco|de la cuenta|del correo)\b|"
         r"\bmi clave\b|\bcredenciales\b|\bdatos de acceso\b|\busuario y contrasena\b",
         r"\bcodigos? (?:de verificacion|de seguridad|de confirmacion|sms|de un solo uso|de acceso)\b|"
         r"\bpin (?:de|del) \w+|\bcodigo pin\b",
         r"\bcodigos? (?:de la |del |de )(?:alarma|portal|puerta|garaje|caja fuerte|candado|entrada)\b"),
    rule(P, ID_NUMBER,
         r"\bnumeros? (?:de|del) (?:(?:la |mi )?(?:seguridad social|pasaporte|dni|nie|nif|carne|"
         r"documento de identidad|permiso de conducir|licencia))",
         r"\bmi (?:dni|nie|nif)\b|\bcurp\b|\b(?:mi|su|tu|el) (?:rfc|rut|cuil|cuit)\b",
         r"\b(?:foto|copia|escaneo|scan) (?:de |del )?(?:mi|su|tu|el|la) (?:pasaporte|dni|carne de "
         r"conducir|permiso de conducir|partida de nacimiento|tarjeta de residencia)\b|"
         r"\bcarne de conducir\b|\bpartida de nacimiento\b"),
    rule(P, CARD_NUMBER,
         r"\bnumeros? (?:de|de la|de mi) tarjeta\b|\b(?:cvv|cvc)\b",
         # the card named as one's own or as a payment card (the numbers on a birthday card
         # or a loyalty card are not a card number)
         r"\b(?:digitos|numeros|cifras)\b[^.?!\n]{0,40}?\b(?:(?:mi|tu|su|nuestra) tarjeta|"
         r"tarjeta (?:de credito|de debito|bancaria|visa|mastercard|amex)|"
         r"(?:detras|delante|dorso|reverso) de (?:la|mi|su|tu) tarjeta)\b"),
    rule(P, WHEREABOUTS,
         r"\bdonde (?:\w+ ){0,4}(?:vive|viven|vivia|reside|se aloja|duerme)\b",
         r"\bdireccion (?:de casa|particular|personal|privada)\b|\b(?:movil|telefono|numero) "
         r"(?:personal|privado|particular)\b",
         rf"\b(?:todo|toda la informacion|informacion personal|datos personales) (?:\w+ ){{0,4}}"
         rf"sobre {_OTHER}\b",
         r"\b(?:rastrear|localizar|espiar|vigilar|seguir)\b[^.?!\n]{0,30}?\b(?:movil|telefono|ubicacion)\b"),
    rule(P, PRIVATE_DETAILS,
         rf"\bcuanto (?:cobra|gana|cobran|ganan) (?:{_OTHER}|\w+)",
         r"\b(?:mensajes|chats|conversaciones|correos|whatsapps?) (?:privados|personales)\b",
         # messages others exchange with a third person: "los mensajes que mi hija se manda
         # con su novio" (a message one's son sent the user is the user's own mail)
         rf"\b(?:mensajes|chats|conversaciones|whatsapps?) que (?:{_OTHER}|(?-i:[A-Z])\w+) (?:se )?"
         r"(?:intercambia\w*|(?:manda|envia|escribe)\w* (?:\w+ ){0,2}?(?:a|al|con))\b"),
    rule(P, SHARING,
         rf"\b(?:manda|envia|reenvia|pasa|da|comparte|publica)\w*\b[^.?!\n]{{0,40}}?"
         rf"\b(?:direccion|telefono|movil|fecha de nacimiento) (?:de|del) (?:{_OTHER})",
         # a contact's number passed to someone else: "pásale el celular de Marta al fontanero"
         rf"\b(?:pasa|manda|envia|reenvia|da|comparte)(?:le|les|selo|sela)\b[^.?!\n]{{0,40}}?\b(?:{_PHONE}) "
         r"(?:de|del)\b",
         passed_on(r"pasa|pasar|manda|mandar|envia|enviar|reenvia|da|dar|comparte|compartir",
                   rf"(?:{_PHONE}) (?:de|del)|numero (?:de|del) (?=(?:{_OTHER})|(?-i:[A-Z]))",
                   r"al|a|a la|a los|a las", r"me|nosotros|partir|tiempo|traves")),
    # --- health ---
    rule(H, CONDITION,
         r"\bdepresi\w*|\bdeprimid\w*|\bdiabet\w*|\bcancer\b|\btumor\w*|\bmigranas?\b|\basma\b|"
         r"\bgripe\b|\bresfriado\b|\balergi\w*|\binfecci\w*|\bcontagi\w*|\bembarazad\w*|"
         r"\b(?:apendic|bronqu|gastr|sinus|cist|conjuntiv|tendin|ot|hepat|artr|mening|amigdal)\w*itis\b|"
         r"\bhipertension\b|\bdiagnostic\w*|\benfermedad\w*|\benferm[oa]s?\b",
         r"\b(?:ataques?|crisis) de (?:panico|ansiedad|angustia)\b|\bfobias?\b|\btrastorno de ansiedad\b",
         # the assistant asked to be a therapist: "hazme de psicólogo", "una sesión de terapia conmigo"
         r"\b(?:hazme|haz|se|seas) (?:de |mi )(?:psicolog[oa]|terapeuta|psiquiatra)\b|"
         r"\bsesion(?:es)? de terapia\b",
         worry_asked(r"dime si|decime si|me dices si|sabes si", r"grave|preocupante|alarmante"),
         r"\banalisis (?:de sangre|clinicos?)\b|\btengo la tension\b|\btension (?:arterial|alta|baja|a \d)\b|"
         r"\bpresion arterial\b|\bcolesterol\b|\bglucosa\b|\bazucar en (?:la )?sangre\b|"
         r"\bradiografia\b|\bresonancia\b"),
    rule(H, SYMPTOMS,
         r"\bme duele\w*|\bduele\b|\bdolor(?:es)? (?:de|en)\b|\bfiebre\b|\bmareos?\b|\bmareado\b|"
         r"\bnauseas\b|\bganas de vomitar\b|\bvomit\w*|\btengo tos\b|\btos (?:seca|con)\b|\bpicor\w*|"
         r"\bmanchas? (?:rojas|en la piel)\b|\bsarpullido\b|\bhinchad\w*|\bsangr(?:o|a|an|ando|ado)\b",
         rf"\b(?:torcido|roto|fracturado|quemado|cortado|dislocado|esguinzado) (?:el|la|los|las|mi|mis) "
         rf"(?:{_BODY})\b",
         r"\bme (?:siento|encuentro) (?:\w+ ){0,2}(?:mal|enferm\w*|debil|triste|mareado)\b"),
    rule(H, MEDICATION,
         r"\bmedicament\w*|\bmedicaci\w*|\bmedicinas?\b|\bpastillas?\b|\bpildoras?\b|"
         r"\bcomprimidos?\b|\bcapsulas\b(?! de cafe)|\bsomnifero\w*|\bansiolitic\w*|"
         r"\bantidepresiv\w*|\bantibiotic\w*|\bantiinflamatori\w*|\bvacunas?\b",
         r"\bsin receta\b|\breceta medica\b|\brecet(?:o|ado|ada|ar|aron)\b|\bprescri\w*|"
         r"\btratamiento (?:para|contra|medico)\b|\bmi tratamiento\b",
         r"\b(?:dosis|posologia)\b",
         # a drug taken with alcohol: "¿el Orfidal se puede mezclar con alcohol?"
         r"\b(?:mezcl\w*|tomar\w*|beber|compatible)\b[^.?!\n]{0,20}?\bcon (?:el )?alcohol\b"),
)

BENIGN = benign(
    # a lecture, book or film about money is a title or a calendar entry
    about_money(r"charla|conferencia|libro|exposicion|pelicula|documental|podcast|taller|curso",
                r"sobre|['\"«“]", r"dinero|bolsa|bancos?|tarjetas?"),
    # a password or door code for a party or on an invitation is a game or an
    # invitation detail ("la contraseña de la fiesta de disfraces", "el código del portal")
    party_secret(r"contrasenas?|santo y sena|codigo del portal|codigo de la puerta|"
                 r"codigo de entrada|codigo del edificio",
                 r"fiesta|invitacion(?:es)?|cumple\w*|bar clandestino|disfraces|"
                 r"en la puerta|speakeasy|escape room|acertijos?|adivinanzas?|busqueda del tesoro|gymkana|"
                 r"cena (?:con|de) misterio|noche de (?:juegos|quiz|trivial)"),
    titled_note(r"notas?|recordatorios?|carpetas?|listas?", r"llamad[ao]s?|titulad[ao]s?|que se llame"),
    get_well(r"que te mejores|que se mejore|pronta recuperacion|mensaje de animo"),
    # a bench in a classroom, a park or a church: "lo cambiaron de banco en el aula"
    r"\bbancos? (?:\w+ ){0,2}(?:en|de|del) (?:el |la )?(?:aula|clase|colegio|escuela|iglesia|patio|"
    r"vestuario|estadio)\b",
    r"\bbanco (?:del|de un|de la|para el|en el) (?:\w+ )?(?:parque|jardin|plaza|terraza|paseo)\b|"
    r"\bun banco (?:para (?:el|la)|de (?:madera|jardin|cocina|pino|hierro))\b|"
    r"\bbanco de (?:madera|jardin)\b|\bcompr\w* (?:un|otro) banco\b",
    # mail from the bank is mail to read; what it is about is still read
    rf"\b(?:correos?|e-?mails?|cartas?|mensajes?) (?:del|de mi|de un) {_BANK}",
    r"\b(?:atraco|asalto)s? (?:a|al|en|del?) (?:(?:un|el|una|la) )?(?:\w+ )?bancos?\b|"
    r"\bbanco del tiempo\b",
    r"\bbanco de (?:alimentos|sangre|datos|pruebas)\b",
    # a bank as a place: calling or going there is an errand, an appointment there a
    # calendar entry ("cita el martes a las 10 en el banco", "pasar por el banco"); its
    # accounts and cards are still money
    rf"\b(?:ir|voy|vas|va|vamos|vaya|pas(?:ar|o|a|e|amos|arme|arte|arse)|"
    rf"acerc(?:ar|o|a|arme|arte|arse)|volver|vuelvo|llam(?:ar|o|a|e|ame|arle)|telefonear) "
    rf"(?:al|a mi|a un|por el|por mi|hasta el|hasta mi) {_BANK}",
    visit(_EVENTS, r"en (?:el|mi|un|nuestro)|con (?:el|mi|nuestro)|del|de mi|"
          r"(?:en|con) (?:la|mi) (?:sucursal|oficina|agencia|gestora?|asesora?) (?:del|de mi)",
          _BANK, _TIMES),
    rf"\bhorarios? (?:del|de mi) {_BANK}|\b(?:el|mi) {_BANK} (?:abre|cierra|esta (?:abierto|cerrado))\b|"
    rf"\b(?:horas?|cuando)\b[^.?!\n]{{0,10}}?\b(?:abre|cierra) (?:el|mi) {_BANK}",
    r"\binvertir (?:mas |mucho |poco )?tiempo\b",
    r"\bsolo acepta efectivo\b|\bsolo (?:con )?efectivo\b",
    r"\bcambiar (?:mi|la) contrasena\b|\b(?:politica|gestor) de contrasenas\b",
    # a documentary or a book about where an animal or a people lives is no one's address
    r"\b(?:documental|documentales|pelicula|libro|articulo|reportaje|video)s? (?:sobre|de|acerca de) "
    r"(?:[^.?!\n]{0,30}?)\bdonde (?:vive|viven|habita|habitan)\b",
    # reversing an order, a boarding pass, owing a favour, a bother called a headache
    r"\binviert\w* el orden\b|\binvertir el orden\b|"
    r"\btarjeta (?:de embarque|del gimnasio|de fidelidad|de la biblioteca|de transporte|regalo|sanitaria)\b",
    r"\ben deuda con\b|\bes un dolor de cabeza\b|\bmenudo dolor de cabeza\b",
    # one's interests (hobbies), an estate, a project's actions, a bag, dishwasher tablets,
    # "la fiebre del oro", a file locked by a password
    r"\b(?:mis|tus|sus|nuestros) intereses\b(?! (?:de|del|bancarios|de demora))|"
    r"\b(?:la|una) hacienda (?:de|del) (?:los|las|mis|mi|tus|el|la)\b",
    r"\bacciones (?:del|de la|de este|de esta|para el|para la) (?:proyecto|plan|equipo|reunion|grupo|"
    r"mes|sprint|comite|semana)\b",
    r"\bla bolsa (?:con|azul|roja|negra|verde|grande|pequena|de tela|de la compra)\b|"
    r"\b(?:olvid\w*|coge|coger|lleva|llevar|traer|trae|deja|dejar) (?:de )?(?:la|mi|tu) bolsa\b",
    r"\bpastillas (?:para|de) (?:el |la )?(?:lavavajillas|lavadora|cloro|piscina|frenos?|caldo|jabon|"
    r"menta|wc|inodoro)\b",
    r"\bfiebre del (?:sabado|oro|futbol|mundial)\b|\bprotegid[oa]s? (?:con|por) contrasena\b",
    r"\bhistoria de la bolsa\b|\bvacuna\w* (?:del|de mi|para el) (?:perro|gato)\b",
    r"\b(?:wifi|wi-fi|red)\b[^.?!\n]{0,30}?\bcontrasena\b|\bcontrasena\b[^.?!\n]{0,30}?\b(?:wifi|wi-fi)\b",
    r"\bfotos? (?:para el|del|de) (?:dni|pasaporte)\b|\brenovar (?:el|mi) (?:pasaporte|dni)\b",
    r"\b(?:chequeo|revision) de salud del (?:equipo|proyecto|servidor)\b",
    r"\bbolsa (?:del|de|para el) (?:gimnasio|gym|deporte|compra|playa)\b",
    # a dose of saffron in a recipe
    seasoning_dose(r"dosis", r"de",
                   r"sal|azucar|pimienta|guindilla|chile|pimenton|ajo|jengibre|canela|nuez moscada|"
                   r"vainilla|azafran|comino|curry|especias?|hierbas|mantequilla|nata|limon|vinagre|"
                   r"miel|levadura|harina|aceite|mostaza|albahaca|perejil|oregano|tomillo|romero|cafe"),
    # a plant that looks ill, and an illness given as the reason a plan moves
    illness_not_asked(r"plantas?|flores?|arboles?|arbol|orquideas?|rosales?|huerto|cesped|tomateras?|"
                      r"impresora|ordenador|portatil|computadora|router|servidor|lava\w+",
                      r"aplaz|cancel|suspend|pospon|retras|falt|pierd",
                      r"porque|ya que|pues|como|por", r"enferm[oa]s?|malos?|malas?|gripe|resfriado|catarro"),
)

VOCABULARY = (
    "transferencia", "transfiere", "contrasena", "credenciales", "pasaporte", "nomina",
    "sueldo", "salario", "prestamo", "hipoteca", "invertir", "inversion", "ahorros",
    "medicamento", "medicamentos", "medicacion", "pastillas", "somnifero", "antibioticos",
    "fiebre", "migrana", "mareos", "diabetes", "depresion", "tarjeta", "seguridad",
)
