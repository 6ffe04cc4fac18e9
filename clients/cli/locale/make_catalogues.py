"""Write the terminal client's catalogues (`<lang>.po`) from the messages marked in clients/cli (Babel's extractor)
and the translations below. Run `python -m clients.cli.locale.make_catalogues` after changing a message; a
message without a translation here is written untranslated (and the catalogue test fails)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import write_po

HERE = Path(__file__).resolve().parent
CLI = HERE.parent

T: dict[str, dict[str, str]] = {
    "1) create a room   2) join a room   3) spectate a room   4) refresh   5) quit": {
        "hu": "1) új szoba   2) csatlakozás   3) nézés   4) frissítés   5) kilépés",
        "fi": "1) luo huone   2) liity huoneeseen   3) katso huonetta   4) päivitä   5) lopeta",
        "it": "1) crea una stanza   2) entra in una stanza   3) guarda una stanza   4) aggiorna   5) esci",
        "es": "1) crear una sala   2) unirse a una sala   3) mirar una sala   4) actualizar   5) salir",
    },
    "number: make that move   s: sync   l: leave (to the lobby)   q: quit": {
        "hu": "szám: az a lépés   s: szinkron   l: kilépés (az előtérbe)   q: kilépés a programból",
        "fi": "numero: tee se siirto   s: synkronoi   l: poistu (aulaan)   q: lopeta",
        "it": "numero: fai quella mossa   s: sincronizza   l: esci (nella sala)   q: chiudi",
        "es": "número: hacer esa jugada   s: sincronizar   l: salir (al vestíbulo)   q: terminar",
    },
    "Which game? ({games}) [expedition]:": {
        "hu": "Melyik játék? ({games}) [expedition]:",
        "fi": "Mikä peli? ({games}) [expedition]:",
        "it": "Quale gioco? ({games}) [expedition]:",
        "es": "¿Qué juego? ({games}) [expedition]:",
    },
    "How many seats for {game}? [3]:": {
        "hu": "Hány hely legyen: {game}? [3]:",
        "fi": "Montako paikkaa peliin {game}? [3]:",
        "it": "Quanti posti per {game}? [3]:",
        "es": "¿Cuántos asientos para {game}? [3]:",
    },
    "How many of the {n} seats for server bots? [0]:": {
        "hu": "A(z) {n} helyből hány legyen szerver-robot? [0]:",
        "fi": "Montako paikkaa {n}:stä palvelimen boteille? [0]:",
        "it": "Quanti dei {n} posti per i bot del server? [0]:",
        "es": "¿Cuántos de los {n} asientos para bots del servidor? [0]:",
    },
    "Number of the room to watch (Enter to cancel):": {
        "hu": "A nézendő szoba száma (Enter: mégse):",
        "fi": "Katsottavan huoneen numero (Enter peruu):",
        "it": "Numero della stanza da guardare (Invio per annullare):",
        "es": "Número de la sala que mirar (Intro para cancelar):",
    },
    "Number of the room to join (Enter to cancel):": {
        "hu": "A szoba száma a csatlakozáshoz (Enter: mégse):",
        "fi": "Huoneen numero, johon liityt (Enter peruu):",
        "it": "Numero della stanza in cui entrare (Invio per annullare):",
        "es": "Número de la sala a la que unirse (Intro para cancelar):",
    },
    "Reconnected; please try again.": {
        "hu": "Újra kapcsolódva; próbáld újra.",
        "fi": "Yhteys palautettu; yritä uudelleen.",
        "it": "Riconnesso; riprova.",
        "es": "Reconectado; vuelve a intentarlo.",
    },
    "Unknown command {line}.": {
        "hu": "Ismeretlen parancs: {line}.",
        "fi": "Tuntematon komento {line}.",
        "it": "Comando sconosciuto {line}.",
        "es": "Orden desconocida {line}.",
    },
    "{line} is not a number of seats.": {
        "hu": "{line} nem a helyek száma.",
        "fi": "{line} ei ole paikkojen määrä.",
        "it": "{line} non è un numero di posti.",
        "es": "{line} no es un número de asientos.",
    },
    "{line} is not a number of bots from 0 to {n}.": {
        "hu": "{line} nem 0 és {n} közötti robotszám.",
        "fi": "{line} ei ole bottien määrä väliltä 0–{n}.",
        "it": "{line} non è un numero di bot da 0 a {n}.",
        "es": "{line} no es un número de bots de 0 a {n}.",
    },
    "There is no room {line} in the list.": {
        "hu": "Nincs {line} számú szoba a listában.",
        "fi": "Luettelossa ei ole huonetta {line}.",
        "it": "Nell'elenco non c'è la stanza {line}.",
        "es": "No hay ninguna sala {line} en la lista.",
    },
    "Created room {room}.": {
        "hu": "A(z) {room} szoba létrejött.",
        "fi": "Huone {room} luotu.",
        "it": "Stanza {room} creata.",
        "es": "Sala {room} creada.",
    },
    "Watching room {room}.": {
        "hu": "A(z) {room} szoba nézése.",
        "fi": "Katsot huonetta {room}.",
        "it": "Stai guardando la stanza {room}.",
        "es": "Estás mirando la sala {room}.",
    },
    "Seated at seat {n} in room {room}.": {
        "hu": "Leültél a(z) {n}. helyre a(z) {room} szobában.",
        "fi": "Istut paikalla {n} huoneessa {room}.",
        "it": "Seduto al posto {n} nella stanza {room}.",
        "es": "Sentado en el asiento {n} de la sala {room}.",
    },
    "Left room {room}.": {
        "hu": "Elhagytad a(z) {room} szobát.",
        "fi": "Poistuit huoneesta {room}.",
        "it": "Hai lasciato la stanza {room}.",
        "es": "Saliste de la sala {room}.",
    },
    "There is nothing for you to do right now.": {
        "hu": "Most nincs teendőd.",
        "fi": "Sinulla ei ole nyt mitään tehtävää.",
        "it": "Ora non devi fare nulla.",
        "es": "Ahora no tienes nada que hacer.",
    },
    "Choose an option from 1 to {n}.": {
        "hu": "Válassz 1 és {n} között.",
        "fi": "Valitse vaihtoehto väliltä 1–{n}.",
        "it": "Scegli un'opzione da 1 a {n}.",
        "es": "Elige una opción del 1 al {n}.",
    },
    "That option is out of date ({why}); here is the current view.": {
        "hu": "Ez a választás már elavult ({why}); itt a mostani állás.",
        "fi": "Vaihtoehto on vanhentunut ({why}); tässä nykyinen tilanne.",
        "it": "Questa scelta non è più valida ({why}); ecco la situazione attuale.",
        "es": "Esa opción ya no vale ({why}); esta es la situación actual.",
    },
    "You chose: {label}": {
        "hu": "Választásod: {label}",
        "fi": "Valitsit: {label}",
        "it": "Hai scelto: {label}",
        "es": "Elegiste: {label}",
    },
    "The server could not read that request.": {
        "hu": "A szerver nem tudta értelmezni a kérést.",
        "fi": "Palvelin ei saanut pyynnöstä selvää.",
        "it": "Il server non ha potuto leggere la richiesta.",
        "es": "El servidor no pudo leer la petición.",
    },
    "The server does not know that kind of request.": {
        "hu": "A szerver nem ismeri ezt a fajta kérést.",
        "fi": "Palvelin ei tunne tällaista pyyntöä.",
        "it": "Il server non conosce questo tipo di richiesta.",
        "es": "El servidor no conoce ese tipo de petición.",
    },
    "That room or game does not exist (any more).": {
        "hu": "Ez a szoba vagy játék nem létezik (már).",
        "fi": "Tätä huonetta tai peliä ei ole (enää).",
        "it": "Questa stanza o questo gioco non esiste (più).",
        "es": "Esa sala o ese juego no existe (ya).",
    },
    "You may not do that here.": {
        "hu": "Ezt itt nem teheted meg.",
        "fi": "Et voi tehdä sitä täällä.",
        "it": "Qui non puoi farlo.",
        "es": "Aquí no puedes hacer eso.",
    },
    "It is not your turn.": {
        "hu": "Nem te következel.",
        "fi": "Ei ole sinun vuorosi.",
        "it": "Non è il tuo turno.",
        "es": "No es tu turno.",
    },
    "That is not one of your choices now.": {
        "hu": "Ez most nem tartozik a választható lépéseid közé.",
        "fi": "Tämä ei ole nyt yksi vaihtoehdoistasi.",
        "it": "Questa ora non è una delle tue scelte.",
        "es": "Eso no es ahora una de tus opciones.",
    },
    "Every seat of that room is taken.": {
        "hu": "A szoba minden helye foglalt.",
        "fi": "Huoneen kaikki paikat on varattu.",
        "it": "Tutti i posti della stanza sono occupati.",
        "es": "Todos los asientos de la sala están ocupados.",
    },
    "Another player holds that seat.": {
        "hu": "Ezt a helyet egy másik játékos foglalja.",
        "fi": "Paikka on toisen pelaajan.",
        "it": "Quel posto è di un altro giocatore.",
        "es": "Ese asiento es de otro jugador.",
    },
    "Too many requests at once: wait a moment and try again.": {
        "hu": "Túl sok kérés egyszerre: várj egy kicsit, és próbáld újra.",
        "fi": "Liikaa pyyntöjä kerralla: odota hetki ja yritä uudelleen.",
        "it": "Troppe richieste insieme: attendi un momento e riprova.",
        "es": "Demasiadas peticiones a la vez: espera un momento y vuelve a intentarlo.",
    },
    "That request is too large.": {
        "hu": "A kérés túl nagy.",
        "fi": "Pyyntö on liian suuri.",
        "it": "La richiesta è troppo grande.",
        "es": "La petición es demasiado grande.",
    },
    "The server cannot reach its storage right now: try again in a moment.": {
        "hu": "A szerver most nem éri el a tárolóját: próbáld újra egy kis idő múlva.",
        "fi": "Palvelin ei tavoita tallennustaan juuri nyt: yritä hetken päästä uudelleen.",
        "it": "Il server ora non raggiunge il suo archivio: riprova tra un momento.",
        "es": "El servidor no llega ahora a su almacenamiento: vuelve a intentarlo en un momento.",
    },
    "Something went wrong on the server.": {
        "hu": "Hiba történt a szerveren.",
        "fi": "Palvelimella tapahtui virhe.",
        "it": "Qualcosa è andato storto sul server.",
        "es": "Algo falló en el servidor.",
    },
    "The game moved on before your move arrived.": {
        "hu": "A játék továbbhaladt, mielőtt a lépésed megérkezett.",
        "fi": "Peli eteni ennen kuin siirtosi ehti perille.",
        "it": "La partita è andata avanti prima che arrivasse la tua mossa.",
        "es": "La partida avanzó antes de que llegara tu jugada.",
    },
    "The server said: {message}": {
        "hu": "A szerver üzenete: {message}",
        "fi": "Palvelin sanoi: {message}",
        "it": "Il server dice: {message}",
        "es": "El servidor dice: {message}",
    },
    # ---- public lobbies: quick match, links, clocks, chat, replays, rematch --------------------
    (
        "quick GAME SEATS: play now   open LINK: open a room's link   history: finished games   "
        "replay N: watch one again   ratings GAME   say TEXT: chat"
    ): {
        "hu": "quick JÁTÉK HELYEK: játék most   open LINK: szoba linkjének megnyitása   history: befejezett játékok   "
        "replay N: visszajátszás   ratings JÁTÉK   say SZÖVEG: csevegés",
        "fi": "quick PELI PAIKAT: pelaa nyt   open LINKKI: avaa huoneen linkki   history: päättyneet pelit   "
        "replay N: katso uudelleen   ratings PELI   say TEKSTI: keskustele",
        "it": "quick GIOCO POSTI: gioca ora   open LINK: apri il link di una stanza   history: partite finite   "
        "replay N: rivedila   ratings GIOCO   say TESTO: chat",
        "es": "quick JUEGO ASIENTOS: jugar ya   open ENLACE: abrir el enlace de una sala   "
        "history: partidas terminadas   replay N: verla otra vez   ratings JUEGO   say TEXTO: chat",
    },
    "log: the whole game   say TEXT: chat   t: take a free seat   r: rematch (at the end)   replay: watch it again": {
        "hu": "log: az egész játék   say SZÖVEG: csevegés   t: szabad hely   r: visszavágó (a végén)   "
        "replay: visszajátszás",
        "fi": "log: koko peli   say TEKSTI: keskustele   t: ota vapaa paikka   r: uusintaottelu (lopussa)   "
        "replay: katso uudelleen",
        "it": "log: tutta la partita   say TESTO: chat   t: prendi un posto libero   r: rivincita (alla fine)   "
        "replay: rivedila",
        "es": "log: toda la partida   say TEXTO: chat   t: ocupar un asiento libre   r: revancha (al final)   "
        "replay: verla otra vez",
    },
    "log N: older page   Enter: back to the room": {
        "hu": "log N: régebbi oldal   Enter: vissza a szobába",
        "fi": "log N: vanhempi sivu   Enter: takaisin huoneeseen",
        "it": "log N: pagina più vecchia   Invio: torna alla stanza",
        "es": "log N: página anterior   Intro: volver a la sala",
    },
    "f: first   b: back   n or Enter: forward   e: last   g N: go to version N   l: lobby   q: quit": {
        "hu": "f: eleje   b: vissza   n vagy Enter: előre   e: vége   g N: ugrás az N. változatra   "
        "l: előtér   q: kilépés",
        "fi": "f: alku   b: taakse   n tai Enter: eteen   e: loppu   g N: siirry versioon N   l: aula   q: lopeta",
        "it": "f: inizio   b: indietro   n o Invio: avanti   e: fine   g N: vai alla versione N   l: sala   q: chiudi",
        "es": "f: inicio   b: atrás   n o Intro: adelante   e: final   g N: ir a la versión N   "
        "l: vestíbulo   q: terminar",
    },
    "Invite link: {link}": {
        "hu": "Meghívó link: {link}",
        "fi": "Kutsulinkki: {link}",
        "it": "Link d'invito: {link}",
        "es": "Enlace de invitación: {link}",
    },
    "A seat is free: t takes it.": {
        "hu": "Van szabad hely: a t elfoglalja.",
        "fi": "Paikka on vapaana: t ottaa sen.",
        "it": "C'è un posto libero: t lo prende.",
        "es": "Hay un asiento libre: t lo ocupa.",
    },
    "A rematch is open: r joins it.": {
        "hu": "Visszavágó nyílt: az r csatlakozik hozzá.",
        "fi": "Uusintaottelu on auki: r liittyy siihen.",
        "it": "C'è una rivincita aperta: r ti fa entrare.",
        "es": "Hay una revancha abierta: r te une a ella.",
    },
    "Quick match: seat {n} in room {room}.": {
        "hu": "Gyors játék: {n}. hely a(z) {room} szobában.",
        "fi": "Pikapeli: paikka {n} huoneessa {room}.",
        "it": "Partita rapida: posto {n} nella stanza {room}.",
        "es": "Partida rápida: asiento {n} en la sala {room}.",
    },
    "Type history first, then replay N.": {
        "hu": "Előbb írd be: history, aztán: replay N.",
        "fi": "Kirjoita ensin history, sitten replay N.",
        "it": "Scrivi prima history, poi replay N.",
        "es": "Escribe primero history y luego replay N.",
    },
}


@cache
def _messages() -> tuple[str, ...]:
    found: list[str] = []
    for _file, _line, msg, _comments, _ctx in extract_from_dir(
        str(CLI), method_map=[("**.py", "python")], keywords={"_": None, "N_": None}
    ):
        if isinstance(msg, str) and msg not in found:
            found.append(msg)
    return tuple(found)


def messages() -> list[str]:
    """Every message marked with `_()` or `N_()` in clients/cli, in order of appearance."""
    return list(_messages())


def main() -> None:
    for code in ("hu", "fi", "it", "es"):
        cat = Catalog(locale=code, project="marcopolo-cli", domain="cli")
        for msg in messages():
            cat.add(msg, T.get(msg, {}).get(code, ""))
        with (HERE / f"{code}.po").open("wb") as f:
            write_po(f, cat, width=120, omit_header=False, sort_output=False)
        print(code, len(cat), "messages")


if __name__ == "__main__":
    main()
