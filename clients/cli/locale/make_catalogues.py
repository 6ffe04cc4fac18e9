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
    "Ratings:": {
        "hu": "Értékszámok:",
        "fi": "Luokitukset:",
        "it": "Valutazioni:",
        "es": "Puntuaciones:",
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
    # ---- the boards: section titles, table headings and their lines ----------------------------
    "nobody": {
        "hu": "senki",
        "fi": "ei kukaan",
        "it": "nessuno",
        "es": "nadie",
    },
    "Clock:": {
        "hu": "Óra:",
        "fi": "Kello:",
        "it": "Orologio:",
        "es": "Reloj:",
    },
    "left for {who} (until {until})": {
        "hu": "van hátra neki: {who} ({until}-ig)",
        "fi": "jäljellä pelaajalle {who} (klo {until} asti)",
        "it": "rimasti a {who} (fino alle {until})",
        "es": "le quedan a {who} (hasta las {until})",
    },
    "a bot plays for {names} until they move again": {
        "hu": "egy robot játszik helyettük: {names}, amíg újra nem lépnek",
        "fi": "botti pelaa pelaajien {names} puolesta, kunnes he siirtävät taas",
        "it": "un bot gioca per {names} finché non muovono di nuovo",
        "es": "un bot juega por {names} hasta que vuelvan a mover",
    },
    "Chat": {
        "hu": "Csevegés",
        "fi": "Keskustelu",
        "it": "Chat",
        "es": "Chat",
    },
    "No finished game to show.": {
        "hu": "Nincs befejezett játék.",
        "fi": "Ei päättyneitä pelejä näytettäväksi.",
        "it": "Nessuna partita finita da mostrare.",
        "es": "No hay partidas terminadas que mostrar.",
    },
    "Finished games": {
        "hu": "Befejezett játékok",
        "fi": "Päättyneet pelit",
        "it": "Partite finite",
        "es": "Partidas terminadas",
    },
    "room": {
        "hu": "szoba",
        "fi": "huone",
        "it": "stanza",
        "es": "sala",
    },
    "game": {
        "hu": "játék",
        "fi": "peli",
        "it": "gioco",
        "es": "juego",
    },
    "players": {
        "hu": "játékosok",
        "fi": "pelaajat",
        "it": "giocatori",
        "es": "jugadores",
    },
    "winner": {
        "hu": "győztes",
        "fi": "voittaja",
        "it": "vincitore",
        "es": "ganador",
    },
    "finished": {
        "hu": "befejezve",
        "fi": "päättynyt",
        "it": "finita",
        "es": "terminada",
    },
    "seat {n}": {
        "hu": "{n}. hely",
        "fi": "paikka {n}",
        "it": "posto {n}",
        "es": "asiento {n}",
    },
    "No rated game of {game} yet.": {
        "hu": "Még nincs értékelt játék ebből: {game}.",
        "fi": "Pelistä {game} ei ole vielä pisteytettyjä pelejä.",
        "it": "Ancora nessuna partita valutata di {game}.",
        "es": "Aún no hay partidas puntuadas de {game}.",
    },
    "player": {
        "hu": "játékos",
        "fi": "pelaaja",
        "it": "giocatore",
        "es": "jugador",
    },
    "rating": {
        "hu": "értékszám",
        "fi": "luokitus",
        "it": "punteggio",
        "es": "puntuación",
    },
    "games": {
        "hu": "játszmák",
        "fi": "pelit",
        "it": "partite",
        "es": "partidas",
    },
    "(server bot)": {
        "hu": "(szerver-robot)",
        "fi": "(palvelimen botti)",
        "it": "(bot del server)",
        "es": "(bot del servidor)",
    },
    "(you)": {
        "hu": "(te)",
        "fi": "(sinä)",
        "it": "(tu)",
        "es": "(tú)",
    },
    "Replay": {
        "hu": "Visszajátszás",
        "fi": "Uusinta",
        "it": "Replay",
        "es": "Repetición",
    },
    "version {v} of {last}  seed {seed}": {
        "hu": "{v}. változat / {last}  mag: {seed}",
        "fi": "versio {v}/{last}  siemen {seed}",
        "it": "versione {v} di {last}  seme {seed}",
        "es": "versión {v} de {last}  semilla {seed}",
    },
    "The whole game: {n} events, newest first (page {page} of {pages})": {
        "hu": "Az egész játék: {n} esemény, a legújabb elöl ({page}. oldal / {pages})",
        "fi": "Koko peli: {n} tapahtumaa, uusin ensin (sivu {page}/{pages})",
        "it": "Tutta la partita: {n} eventi, dal più recente (pagina {page} di {pages})",
        "es": "Toda la partida: {n} sucesos, el más reciente primero (página {page} de {pages})",
    },
    "waiting": {
        "hu": "várakozik",
        "fi": "odottaa",
        "it": "in attesa",
        "es": "esperando",
    },
    "playing": {
        "hu": "folyamatban",
        "fi": "käynnissä",
        "it": "in corso",
        "es": "en juego",
    },
    "spectator": {
        "hu": "néző",
        "fi": "katsoja",
        "it": "spettatore",
        "es": "espectador",
    },
    "you: {who}": {
        "hu": "te: {who}",
        "fi": "sinä: {who}",
        "it": "tu: {who}",
        "es": "tú: {who}",
    },
    "The game is over.": {
        "hu": "A játéknak vége.",
        "fi": "Peli on päättynyt.",
        "it": "La partita è finita.",
        "es": "La partida ha terminado.",
    },
    "You are watching.": {
        "hu": "Nézőként figyelsz.",
        "fi": "Katsot peliä.",
        "it": "Stai guardando.",
        "es": "Estás mirando.",
    },
    "Waiting for the seats to fill…": {
        "hu": "Várakozás, amíg a helyek megtelnek…",
        "fi": "Odotetaan, että paikat täyttyvät…",
        "it": "In attesa che i posti si riempiano…",
        "es": "Esperando a que se llenen los asientos…",
    },
    "Waiting for the other players…": {
        "hu": "Várakozás a többi játékosra…",
        "fi": "Odotetaan muita pelaajia…",
        "it": "In attesa degli altri giocatori…",
        "es": "Esperando a los demás jugadores…",
    },
    "Your move.": {
        "hu": "Te lépsz.",
        "fi": "Sinun siirtosi.",
        "it": "Tocca a te.",
        "es": "Te toca.",
    },
    "Seats": {
        "hu": "Helyek",
        "fi": "Paikat",
        "it": "Posti",
        "es": "Asientos",
    },
    "seat": {
        "hu": "hely",
        "fi": "paikka",
        "it": "posto",
        "es": "asiento",
    },
    "connected": {
        "hu": "kapcsolódva",
        "fi": "yhteydessä",
        "it": "connesso",
        "es": "conectado",
    },
    "yes": {
        "hu": "igen",
        "fi": "kyllä",
        "it": "sì",
        "es": "sí",
    },
    "no": {
        "hu": "nem",
        "fi": "ei",
        "it": "no",
        "es": "no",
    },
    "Public": {
        "hu": "Nyilvános",
        "fi": "Julkinen",
        "it": "Pubblico",
        "es": "Público",
    },
    "Yours": {
        "hu": "A tiéd",
        "fi": "Sinun",
        "it": "Tuo",
        "es": "Tuyo",
    },
    "Winners: {names}": {
        "hu": "Győztesek: {names}",
        "fi": "Voittajat: {names}",
        "it": "Vincitori: {names}",
        "es": "Ganadores: {names}",
    },
    "Winner: {names}": {
        "hu": "Győztes: {names}",
        "fi": "Voittaja: {names}",
        "it": "Vincitore: {names}",
        "es": "Ganador: {names}",
    },
    "tie-break": {
        "hu": "holtverseny-döntő",
        "fi": "tasapelin ratkaisu",
        "it": "spareggio",
        "es": "desempate",
    },
    "Final result": {
        "hu": "Végeredmény",
        "fi": "Lopputulos",
        "it": "Risultato finale",
        "es": "Resultado final",
    },
    "rank": {
        "hu": "helyezés",
        "fi": "sija",
        "it": "posizione",
        "es": "puesto",
    },
    "score": {
        "hu": "pont",
        "fi": "pisteet",
        "it": "punti",
        "es": "puntos",
    },
    "No open rooms yet. Create one!": {
        "hu": "Még nincs nyitott szoba. Hozz létre egyet!",
        "fi": "Avoimia huoneita ei vielä ole. Luo sellainen!",
        "it": "Ancora nessuna stanza aperta. Creane una!",
        "es": "Aún no hay salas abiertas. ¡Crea una!",
    },
    "Lobby": {
        "hu": "Előtér",
        "fi": "Aula",
        "it": "Sala d'attesa",
        "es": "Vestíbulo",
    },
    "seats": {
        "hu": "helyek",
        "fi": "paikat",
        "it": "posti",
        "es": "asientos",
    },
    "status": {
        "hu": "állapot",
        "fi": "tila",
        "it": "stato",
        "es": "estado",
    },
    "(your seat)": {
        "hu": "(a helyed)",
        "fi": "(paikkasi)",
        "it": "(il tuo posto)",
        "es": "(tu asiento)",
    },
    "start and goal": {
        "hu": "kezdés és cél",
        "fi": "lähtö ja maali",
        "it": "partenza e arrivo",
        "es": "salida y meta",
    },
    "mission done ({city})": {
        "hu": "küldetés teljesítve ({city})",
        "fi": "tehtävä suoritettu ({city})",
        "it": "missione compiuta ({city})",
        "es": "misión cumplida ({city})",
    },
    "Trading at": {
        "hu": "Kereskedés itt:",
        "fi": "Kaupankäynti paikassa",
        "it": "Commercio a",
        "es": "Comercio en",
    },
    "bought {n} of 3 from the stack.": {
        "hu": "{n} lap megvéve a 3-ból a pakliból.",
        "fi": "ostettu pakasta {n}/3.",
        "it": "comprate {n} di 3 dal mazzo.",
        "es": "compradas {n} de 3 del mazo.",
    },
    "{who} won": {
        "hu": "{who} nyert",
        "fi": "{who} voitti",
        "it": "{who} ha vinto",
        "es": "{who} ganó",
    },
    "{who} lost": {
        "hu": "{who} vesztett",
        "fi": "{who} hävisi",
        "it": "{who} ha perso",
        "es": "{who} perdió",
    },
    "Fight: {who} rolled {player}, the {raiders} {them}": {
        "hu": "Harc: {who} dobása {player}, a támadóké ({raiders}) {them}",
        "fi": "Taistelu: {who} heitti {player}, {raiders} {them}",
        "it": "Combattimento: {who} ha tirato {player}, i {raiders} {them}",
        "es": "Lucha: {who} sacó {player}, los {raiders} {them}",
    },
    "stopping point": {
        "hu": "megállóhely",
        "fi": "pysähdyspaikka",
        "it": "punto di sosta",
        "es": "parada",
    },
    "type": {
        "hu": "típus",
        "fi": "tyyppi",
        "it": "tipo",
        "es": "tipo",
    },
    "land to": {
        "hu": "szárazföldön ide",
        "fi": "maitse kohteisiin",
        "it": "via terra verso",
        "es": "por tierra a",
    },
    "sea to": {
        "hu": "tengeren ide",
        "fi": "meritse kohteisiin",
        "it": "via mare verso",
        "es": "por mar a",
    },
    "pawns": {
        "hu": "bábuk",
        "fi": "nappulat",
        "it": "pedine",
        "es": "peones",
    },
    "post": {
        "hu": "kereskedőhely",
        "fi": "kauppapaikka",
        "it": "emporio",
        "es": "puesto comercial",
    },
    "(your mission)": {
        "hu": "(a küldetésed)",
        "fi": "(tehtäväsi)",
        "it": "(la tua missione)",
        "es": "(tu misión)",
    },
    "Route map": {
        "hu": "Útvonaltérkép",
        "fi": "Reittikartta",
        "it": "Mappa dei percorsi",
        "es": "Mapa de rutas",
    },
    "V Venice, K Khanbaliq, * mission city, ^ port, o trading post, . city": {
        "hu": "V Velence, K Kánbalik, * küldetésváros, ^ kikötő, o kereskedőhely, . város",
        "fi": "V Venetsia, K Kaanbalik, * tehtäväkaupunki, ^ satama, o kauppapaikka, . kaupunki",
        "it": "V Venezia, K Khanbaliq, * città della missione, ^ porto, o emporio, . città",
        "es": "V Venecia, K Kanbalik, * ciudad de la misión, ^ puerto, o puesto comercial, . ciudad",
    },
    "* after a name marks your pawn; <- n) is choice n": {
        "hu": "a név utáni * a bábudat jelöli; <- n) az n. választás",
        "fi": "* nimen perässä merkitsee nappulaasi; <- n) on vaihtoehto n",
        "it": "* dopo un nome indica la tua pedina; <- n) è la scelta n",
        "es": "* tras un nombre marca tu peón; <- n) es la opción n",
    },
    "Ransom spaces:": {
        "hu": "Váltságdíjmezők:",
        "fi": "Lunnasruudut:",
        "it": "Spazi del riscatto:",
        "es": "Casillas de rescate:",
    },
    "empty (a winner takes 30 from the bank)": {
        "hu": "üres (a győztes 30-at kap a banktól)",
        "fi": "tyhjä (voittaja saa 30 pankista)",
        "it": "vuoto (chi vince prende 30 dalla banca)",
        "es": "vacía (quien gane toma 30 del banco)",
    },
    "Stacks:": {
        "hu": "Paklik:",
        "fi": "Pakat:",
        "it": "Mazzi:",
        "es": "Mazos:",
    },
    "Golden Tables left: {n}.": {
        "hu": "Megmaradt Aranyasztalok: {n}.",
        "fi": "Kultaisia Pöytiä jäljellä: {n}.",
        "it": "Tavole d'Oro rimaste: {n}.",
        "es": "Mesas de Oro restantes: {n}.",
    },
    "Secrets of the East left: {n}.": {
        "hu": "Megmaradt Kelet Titkai: {n}.",
        "fi": "Itämaan Salaisuuksia jäljellä: {n}.",
        "it": "Segreti d'Oriente rimasti: {n}.",
        "es": "Secretos de Oriente restantes: {n}.",
    },
    "Players": {
        "hu": "Játékosok",
        "fi": "Pelaajat",
        "it": "Giocatori",
        "es": "Jugadores",
    },
    "at": {
        "hu": "hol",
        "fi": "missä",
        "it": "dove",
        "es": "dónde",
    },
    "route": {
        "hu": "út",
        "fi": "reitti",
        "it": "percorso",
        "es": "ruta",
    },
    "money": {
        "hu": "pénz",
        "fi": "rahat",
        "it": "denaro",
        "es": "dinero",
    },
    "cards": {
        "hu": "lapok",
        "fi": "kortit",
        "it": "carte",
        "es": "cartas",
    },
    "mission": {
        "hu": "küldetés",
        "fi": "tehtävä",
        "it": "missione",
        "es": "misión",
    },
    "online": {
        "hu": "elérhető",
        "fi": "paikalla",
        "it": "online",
        "es": "en línea",
    },
    "misses {n} turns": {
        "hu": "kimarad {n} körből",
        "fi": "menettää {n} vuoroa",
        "it": "salta {n} turni",
        "es": "pierde {n} turnos",
    },
    "misses {n} turn": {
        "hu": "kimarad {n} körből",
        "fi": "menettää {n} vuoron",
        "it": "salta {n} turno",
        "es": "pierde {n} turno",
    },
    "Your hand ({n} cards, worth {worth})": {
        "hu": "A kezed ({n} lap, értéke {worth})",
        "fi": "Kätesi ({n} korttia, arvo {worth})",
        "it": "La tua mano ({n} carte, valore {worth})",
        "es": "Tu mano ({n} cartas, valor {worth})",
    },
    "(no cards)": {
        "hu": "(nincs lap)",
        "fi": "(ei kortteja)",
        "it": "(nessuna carta)",
        "es": "(sin cartas)",
    },
    "Your money: {money} bezants.  Your total: {total} of {target}": {
        "hu": "A pénzed: {money} bizánci arany.  Összvagyonod: {total} / {target}",
        "fi": "Rahasi: {money} besanttia.  Varasi yhteensä: {total}/{target}",
        "it": "Il tuo denaro: {money} bisanti.  Il tuo totale: {total} su {target}",
        "es": "Tu dinero: {money} besantes.  Tu total: {total} de {target}",
    },
    "(money + cards + 240 per Golden Table and Secret of the East).": {
        "hu": "(pénz + lapok + 240 minden Aranyasztalért és Kelet Titkáért).",
        "fi": "(rahat + kortit + 240 kustakin Kultaisesta Pöydästä ja Itämaan Salaisuudesta).",
        "it": "(denaro + carte + 240 per ogni Tavola d'Oro e Segreto d'Oriente).",
        "es": "(dinero + cartas + 240 por cada Mesa de Oro y Secreto de Oriente).",
    },
    "Colours for the win (1 or 2 each):": {
        "hu": "Színek a győzelemhez (mindegyikből 1 vagy 2):",
        "fi": "Värit voittoon (kutakin 1 tai 2):",
        "it": "Colori per la vittoria (1 o 2 ciascuno):",
        "es": "Colores para ganar (1 o 2 de cada):",
    },
    "ok": {
        "hu": "rendben",
        "fi": "ok",
        "it": "ok",
        "es": "bien",
    },
    "(no)": {
        "hu": "(nem)",
        "fi": "(ei)",
        "it": "(no)",
        "es": "(no)",
    },
    "Mission:": {
        "hu": "Küldetés:",
        "fi": "Tehtävä:",
        "it": "Missione:",
        "es": "Misión:",
    },
    "done in {city}: you hold the Secret of the East; now home to Venice.": {
        "hu": "teljesítve itt: {city}: nálad a Kelet Titka; most haza, Velencébe.",
        "fi": "suoritettu kaupungissa {city}: sinulla on Itämaan Salaisuus; nyt kotiin Venetsiaan.",
        "it": "compiuta a {city}: hai il Segreto d'Oriente; ora a casa, a Venezia.",
        "es": "cumplida en {city}: tienes el Secreto de Oriente; ahora a casa, a Venecia.",
    },
    "your Golden Table sends you to {city}": {
        "hu": "az Aranyasztalod ide küld: {city}",
        "fi": "Kultainen Pöytäsi lähettää sinut kaupunkiin {city}",
        "it": "la tua Tavola d'Oro ti manda a {city}",
        "es": "tu Mesa de Oro te envía a {city}",
    },
    "(secret until you reach it).": {
        "hu": "(titok, amíg oda nem érsz).",
        "fi": "(salassa, kunnes saavut sinne).",
        "it": "(segreta finché non ci arrivi).",
        "es": "(secreta hasta que llegues).",
    },
    "no Golden Table yet: bring three 80-cards to Khanbaliq (you hold {n}).": {
        "hu": "még nincs Aranyasztal: vigyél három 80-as lapot Kánbalikba (nálad van: {n}).",
        "fi": "ei vielä Kultaista Pöytää: vie kolme 80-korttia Kaanbalikiin (sinulla on {n}).",
        "it": "ancora nessuna Tavola d'Oro: porta tre carte da 80 a Khanbaliq (ne hai {n}).",
        "es": "aún sin Mesa de Oro: lleva tres cartas de 80 a Kanbalik (tienes {n}).",
    },
    "Recent events": {
        "hu": "Legutóbbi események",
        "fi": "Viimeisimmät tapahtumat",
        "it": "Eventi recenti",
        "es": "Sucesos recientes",
    },
    "(nothing yet)": {
        "hu": "(még semmi)",
        "fi": "(ei vielä mitään)",
        "it": "(ancora niente)",
        "es": "(nada todavía)",
    },
    "total": {
        "hu": "összesen",
        "fi": "yhteensä",
        "it": "totale",
        "es": "total",
    },
    "progress": {
        "hu": "haladás",
        "fi": "edistyminen",
        "it": "progresso",
        "es": "progreso",
    },
    "reached Venice with the mission done, the total and the colours.": {
        "hu": "teljesített küldetéssel, a szükséges összeggel és színekkel elérte Velencét.",
        "fi": "saapui Venetsiaan tehtävä suoritettuna, varat ja värit koossa.",
        "it": "è arrivato a Venezia con la missione compiuta, il totale e i colori.",
        "es": "llegó a Venecia con la misión cumplida, el total y los colores.",
    },
    "the round limit ended the game: most progress, then the highest total, wins.": {
        "hu": "a körlimit zárta le a játékot: a legnagyobb haladás, aztán a legnagyobb összvagyon nyer.",
        "fi": "kierrosraja päätti pelin: eniten edistynyt ja sitten suurimmat varat voittaa.",
        "it": "il limite di round ha chiuso la partita: vince il maggior progresso, poi il totale più alto.",
        "es": "el límite de rondas terminó la partida: gana el mayor progreso y luego el total más alto.",
    },
    "space": {
        "hu": "mező",
        "fi": "ruutu",
        "it": "casella",
        "es": "casilla",
    },
    "needs": {
        "hu": "igény",
        "fi": "vaatii",
        "it": "richiede",
        "es": "pide",
    },
    "chest": {
        "hu": "láda",
        "fi": "arkku",
        "it": "scrigno",
        "es": "cofre",
    },
    "figures": {
        "hu": "figurák",
        "fi": "hahmot",
        "it": "figure",
        "es": "figuras",
    },
    "{n} gold": {
        "hu": "{n} arany",
        "fi": "{n} kultaa",
        "it": "{n} oro",
        "es": "{n} de oro",
    },
    "Track": {
        "hu": "Útvonal",
        "fi": "Reitti",
        "it": "Percorso",
        "es": "Recorrido",
    },
    "(* marks your figures)": {
        "hu": "(* jelöli a figuráidat)",
        "fi": "(* merkitsee hahmosi)",
        "it": "(* indica le tue figure)",
        "es": "(* marca tus figuras)",
    },
    "chests": {
        "hu": "ládák",
        "fi": "arkut",
        "it": "scrigni",
        "es": "cofres",
    },
    "gold": {
        "hu": "arany",
        "fi": "kulta",
        "it": "oro",
        "es": "oro",
    },
    "(secret)": {
        "hu": "(titkos)",
        "fi": "(salainen)",
        "it": "(segreto)",
        "es": "(secreto)",
    },
    "on {n}": {
        "hu": "a(z) {n}. mezőn",
        "fi": "ruudulla {n}",
        "it": "sulla {n}",
        "es": "en la {n}",
    },
    "Face-up cards:": {
        "hu": "Felfordított kártyák:",
        "fi": "Esillä olevat kortit:",
        "it": "Carte scoperte:",
        "es": "Cartas visibles:",
    },
    "Deck: {n} cards.  Discard pile: {m} cards": {
        "hu": "Húzópakli: {n} kártya.  Dobópakli: {m} kártya",
        "fi": "Nostopakka: {n} korttia.  Poistopakka: {m} korttia",
        "it": "Mazzo: {n} carte.  Scarti: {m} carte",
        "es": "Mazo: {n} cartas.  Descartes: {m} cartas",
    },
    "top": {
        "hu": "felül",
        "fi": "päällimmäinen",
        "it": "in cima",
        "es": "encima",
    },
    "Your hand ({n} cards)": {
        "hu": "A kezed ({n} kártya)",
        "fi": "Kätesi ({n} korttia)",
        "it": "La tua mano ({n} carte)",
        "es": "Tu mano ({n} cartas)",
    },
    "(chests worth {values})": {
        "hu": "(ládák értéke: {values})",
        "fi": "(arkkujen arvot {values})",
        "it": "(scrigni da {values})",
        "es": "(cofres de {values})",
    },
    "your gold: {n}": {
        "hu": "az aranyad: {n}",
        "fi": "kultasi: {n}",
        "it": "il tuo oro: {n}",
        "es": "tu oro: {n}",
    },
    "none yet": {
        "hu": "még nincs",
        "fi": "ei vielä",
        "it": "ancora nessuna",
        "es": "aún ninguna",
    },
    "Paying for the {figure}, picked: {cards}": {
        "hu": "Fizetés ezért: {figure}, kiválasztva: {cards}",
        "fi": "Maksetaan: {figure}, valittu: {cards}",
        "it": "Pagamento per la {figure}, scelte: {cards}",
        "es": "Pagando la {figure}, elegidas: {cards}",
    },
    "furthest space": {
        "hu": "legtávolabbi mező",
        "fi": "kaukaisin ruutu",
        "it": "casella più lontana",
        "es": "casilla más lejana",
    },
    "Map: locations": {
        "hu": "Térkép: helyszínek",
        "fi": "Kartta: paikat",
        "it": "Mappa: luoghi",
        "es": "Mapa: lugares",
    },
    "location": {
        "hu": "helyszín",
        "fi": "paikka",
        "it": "luogo",
        "es": "lugar",
    },
    "kind": {
        "hu": "fajta",
        "fi": "laji",
        "it": "tipo",
        "es": "tipo",
    },
    "shield": {
        "hu": "címer",
        "fi": "vaakuna",
        "it": "scudo",
        "es": "escudo",
    },
    "features": {
        "hu": "jellemzők",
        "fi": "ominaisuudet",
        "it": "caratteristiche",
        "es": "características",
    },
    "trading posts": {
        "hu": "kereskedelmi állomások",
        "fi": "kauppa-asemat",
        "it": "empori",
        "es": "puestos comerciales",
    },
    "{who}'s caravan": {
        "hu": "{who} karavánja",
        "fi": "pelaajan {who} karavaani",
        "it": "carovana di {who}",
        "es": "caravana de {who}",
    },
    "Map: {n} routes": {
        "hu": "Térkép: {n} út",
        "fi": "Kartta: {n} reittiä",
        "it": "Mappa: {n} percorsi",
        "es": "Mapa: {n} rutas",
    },
    "(costs to pay for each route moved along; jade pays for missing coins and camels)": {
        "hu": "(minden megtett út ára; a hiányzó érmét és tevét jáde pótolja)",
        "fi": "(kustakin kuljetusta reitistä maksettava hinta; jade korvaa puuttuvat kolikot ja kamelit)",
        "it": "(costi da pagare per ogni percorso; la giada paga monete e cammelli mancanti)",
        "es": "(costes que pagar por cada ruta recorrida; el jade paga las monedas y camellos que falten)",
    },
    "Action spaces": {
        "hu": "Akciómezők",
        "fi": "Toimintoruudut",
        "it": "Spazi azione",
        "es": "Casillas de acción",
    },
    "dice": {
        "hu": "kocka",
        "fi": "nopat",
        "it": "dadi",
        "es": "dados",
    },
    "gives": {
        "hu": "ad",
        "fi": "antaa",
        "it": "dà",
        "es": "da",
    },
    "dice placed (a taken blue space costs the lowest die in coins)": {
        "hu": "lerakott kockák (a foglalt kék mező a legkisebb kockányi érmébe kerül)",
        "fi": "asetetut nopat (varattu sininen ruutu maksaa pienimmän nopan verran kolikkoja)",
        "it": "dadi piazzati (uno spazio blu occupato costa in monete il dado più basso)",
        "es": "dados colocados (una casilla azul ocupada cuesta en monedas el dado más bajo)",
    },
    "empty": {
        "hu": "üres",
        "fi": "tyhjä",
        "it": "vuoto",
        "es": "vacío",
    },
    "Offer tiles on the books": {
        "hu": "Ajánlatlapkák a könyveken",
        "fi": "Tarjouslaatat kirjoissa",
        "it": "Tessere offerta sui libri",
        "es": "Losetas de oferta en los libros",
    },
    "book {n}": {
        "hu": "{n}. könyv",
        "fi": "kirja {n}",
        "it": "libro {n}",
        "es": "libro {n}",
    },
    "(next: {tile})": {
        "hu": "(következő: {tile})",
        "fi": "(seuraava: {tile})",
        "it": "(prossima: {tile})",
        "es": "(siguiente: {tile})",
    },
    "Contract pile: {n}.": {
        "hu": "Megbízáspakli: {n}.",
        "fi": "Sopimuspakka: {n}.",
        "it": "Mazzo dei contratti: {n}.",
        "es": "Mazo de contratos: {n}.",
    },
    "City cards (a die on a card by a city needs your post there)": {
        "hu": "Városkártyák (egy város kártyájára tett kockához állomás kell abban a városban)",
        "fi": "Kaupunkikortit (noppa kaupungin kortilla vaatii asemasi siellä)",
        "it": "Carte città (un dado sulla carta di una città richiede lì un tuo emporio)",
        "es": "Cartas de ciudad (un dado en la carta de una ciudad requiere tu puesto allí)",
    },
    "action area": {
        "hu": "akcióterület",
        "fi": "toiminta-alue",
        "it": "area azione",
        "es": "área de acción",
    },
    "(taken)": {
        "hu": "(foglalt)",
        "fi": "(varattu)",
        "it": "(presa)",
        "es": "(ocupada)",
    },
    "City card deck: {n}.": {
        "hu": "Városkártya-pakli: {n}.",
        "fi": "Kaupunkikorttipakka: {n}.",
        "it": "Mazzo delle carte città: {n}.",
        "es": "Mazo de cartas de ciudad: {n}.",
    },
    "Caravan routes:": {
        "hu": "Karavánutak:",
        "fi": "Karavaanireitit:",
        "it": "Rotte carovaniere:",
        "es": "Rutas de caravana:",
    },
    "none": {
        "hu": "nincs",
        "fi": "ei mitään",
        "it": "nessuno",
        "es": "ninguno",
    },
    "coins": {
        "hu": "érme",
        "fi": "kolikot",
        "it": "monete",
        "es": "monedas",
    },
    "camels": {
        "hu": "teve",
        "fi": "kamelit",
        "it": "cammelli",
        "es": "camellos",
    },
    "pepper": {
        "hu": "bors",
        "fi": "pippuri",
        "it": "pepe",
        "es": "pimienta",
    },
    "silk": {
        "hu": "selyem",
        "fi": "silkki",
        "it": "seta",
        "es": "seda",
    },
    "jade": {
        "hu": "jáde",
        "fi": "jade",
        "it": "giada",
        "es": "jade",
    },
    "VP": {
        "hu": "GYP",
        "fi": "VP",
        "it": "PV",
        "es": "PV",
    },
    "character": {
        "hu": "karakter",
        "fi": "hahmo",
        "it": "personaggio",
        "es": "personaje",
    },
    "posts (left)": {
        "hu": "állomások (maradt)",
        "fi": "asemat (jäljellä)",
        "it": "empori (rimasti)",
        "es": "puestos (quedan)",
    },
    "done": {
        "hu": "teljesítve",
        "fi": "täytetty",
        "it": "completati",
        "es": "cumplidos",
    },
    "Seals, contracts, tiles and caravans": {
        "hu": "Pecsétek, megbízások, lapkák és karavánok",
        "fi": "Sinetit, sopimukset, laatat ja karavaanit",
        "it": "Sigilli, contratti, tessere e carovane",
        "es": "Sellos, contratos, losetas y caravanas",
    },
    "seals": {
        "hu": "pecsétek",
        "fi": "sinetit",
        "it": "sigilli",
        "es": "sellos",
    },
    "contracts": {
        "hu": "megbízások",
        "fi": "sopimukset",
        "it": "contratti",
        "es": "contratos",
    },
    "outpost tiles": {
        "hu": "előőrs-lapkák",
        "fi": "etuvartiolaatat",
        "it": "tessere avamposto",
        "es": "losetas de puesto avanzado",
    },
    "nothing": {
        "hu": "semmi",
        "fi": "ei mitään",
        "it": "niente",
        "es": "nada",
    },
    "goal cards {n}": {
        "hu": "célkártyák: {n}",
        "fi": "tavoitekortit {n}",
        "it": "carte obiettivo {n}",
        "es": "cartas de objetivo {n}",
    },
    "Your board": {
        "hu": "A táblád",
        "fi": "Pelilautasi",
        "it": "La tua plancia",
        "es": "Tu tablero",
    },
    "Character: {name}: {ability}": {
        "hu": "Karakter: {name}: {ability}",
        "fi": "Hahmo: {name}: {ability}",
        "it": "Personaggio: {name}: {ability}",
        "es": "Personaje: {name}: {ability}",
    },
    "Your goal cards (secret):": {
        "hu": "A célkártyáid (titkos):",
        "fi": "Tavoitekorttisi (salaiset):",
        "it": "Le tue carte obiettivo (segrete):",
        "es": "Tus cartas de objetivo (secretas):",
    },
    "Goal cards offered (keep 1):": {
        "hu": "Felkínált célkártyák (1 megtartható):",
        "fi": "Tarjotut tavoitekortit (pidä 1):",
        "it": "Carte obiettivo offerte (tienine 1):",
        "es": "Cartas de objetivo ofrecidas (quédate 1):",
    },
    "bonus": {
        "hu": "bónusz",
        "fi": "bonus",
        "it": "bonus",
        "es": "bonificación",
    },
    "bonus: {bonus}": {
        "hu": "bónusz: {bonus}",
        "fi": "bonus: {bonus}",
        "it": "bonus: {bonus}",
        "es": "bonificación: {bonus}",
    },
    "first post: {bonus}": {
        "hu": "első állomás: {bonus}",
        "fi": "ensimmäinen asema: {bonus}",
        "it": "primo emporio: {bonus}",
        "es": "primer puesto: {bonus}",
    },
    "first post bonus taken": {
        "hu": "az első állomás bónusza elkelt",
        "fi": "ensimmäisen aseman bonus on otettu",
        "it": "bonus del primo emporio già preso",
        "es": "bonificación del primer puesto ya tomada",
    },
    "{n} city cards": {
        "hu": "{n} városkártya",
        "fi": "{n} kaupunkikorttia",
        "it": "{n} carte città",
        "es": "{n} cartas de ciudad",
    },
    "{n} city card": {
        "hu": "{n} városkártya",
        "fi": "{n} kaupunkikortti",
        "it": "{n} carta città",
        "es": "{n} carta de ciudad",
    },
    "posts score {vp} VP": {
        "hu": "az állomások {vp} GYP-t érnek",
        "fi": "asemat tuovat {vp} VP",
        "it": "gli empori valgono {vp} PV",
        "es": "los puestos dan {vp} PV",
    },
    "{n} steps {cost}": {
        "hu": "{n} lépés: {cost}",
        "fi": "{n} askelta {cost}",
        "it": "{n} passi {cost}",
        "es": "{n} pasos {cost}",
    },
    "{n} step {cost}": {
        "hu": "{n} lépés: {cost}",
        "fi": "{n} askel {cost}",
        "it": "{n} passo {cost}",
        "es": "{n} paso {cost}",
    },
    "(extra cost on top of the travel cost in coins: {steps})": {
        "hu": "(többletköltség az utazási költségen felül, érmében: {steps})",
        "fi": "(lisäkustannus matkakustannuksen päälle, kolikkoina: {steps})",
        "it": "(costo extra oltre al costo di viaggio in monete: {steps})",
        "es": "(coste extra además del coste de viaje en monedas: {steps})",
    },
    "dice placed (a shared blue space costs the lowest die in coins)": {
        "hu": "lerakott kockák (a közös kék mező a legkisebb kockányi érmébe kerül)",
        "fi": "asetetut nopat (jaettu sininen ruutu maksaa pienimmän nopan verran kolikkoja)",
        "it": "dadi piazzati (uno spazio blu condiviso costa in monete il dado più basso)",
        "es": "dados colocados (una casilla azul compartida cuesta en monedas el dado más bajo)",
    },
    "the bazaar column of the lowest die (below)": {
        "hu": "a legkisebb kocka bazároszlopa (lent)",
        "fi": "pienimmän nopan basaarisarake (alla)",
        "it": "la colonna del bazar del dado più basso (sotto)",
        "es": "la columna del bazar del dado más bajo (abajo)",
    },
    "1 or 2 contracts from the slots up to the die": {
        "hu": "1 vagy 2 megbízás a kocka értékéig terjedő helyekről",
        "fi": "1 tai 2 sopimusta paikoista nopan arvoon asti",
        "it": "1 o 2 contratti dagli spazi fino al dado",
        "es": "1 o 2 contratos de las casillas hasta el dado",
    },
    "up to the lowest die steps, paying {costs}": {
        "hu": "legfeljebb a legkisebb kockányi lépés, költség: {costs}",
        "fi": "enintään pienimmän nopan verran askelia, maksu {costs}",
        "it": "fino a tanti passi quanto il dado più basso, pagando {costs}",
        "es": "hasta tantos pasos como el dado más bajo, pagando {costs}",
    },
    "2 camels + 1 good; each die ≥ the last": {
        "hu": "2 teve + 1 áru; minden kocka ≥ az előző",
        "fi": "2 kamelia + 1 tavara; jokainen noppa ≥ edellinen",
        "it": "2 cammelli + 1 merce; ogni dado ≥ il precedente",
        "es": "2 camellos + 1 bien; cada dado ≥ el anterior",
    },
    "3 coins (bonus action)": {
        "hu": "3 érme (bónuszakció)",
        "fi": "3 kolikkoa (bonustoiminto)",
        "it": "3 monete (azione bonus)",
        "es": "3 monedas (acción de bonificación)",
    },
    "Bazaar by column": {
        "hu": "Bazár oszloponként",
        "fi": "Basaari sarakkeittain",
        "it": "Bazar per colonna",
        "es": "Bazar por columna",
    },
    "row": {
        "hu": "sor",
        "fi": "rivi",
        "it": "riga",
        "es": "fila",
    },
    "Contract display": {
        "hu": "Megbízáskínálat",
        "fi": "Sopimusnäyttö",
        "it": "Contratti esposti",
        "es": "Contratos expuestos",
    },
    "(empty)": {
        "hu": "(üres)",
        "fi": "(tyhjä)",
        "it": "(vuoto)",
        "es": "(vacío)",
    },
    "Piles for the next rounds: {piles}; special pile: {n}.": {
        "hu": "Paklik a következő fordulókra: {piles}; különleges pakli: {n}.",
        "fi": "Pakat seuraaville kierroksille: {piles}; erikoispakka: {n}.",
        "it": "Mazzi per i prossimi round: {piles}; mazzo speciale: {n}.",
        "es": "Mazos para las próximas rondas: {piles}; mazo especial: {n}.",
    },
    "City cards (one use per round, a post in the city needed)": {
        "hu": "Városkártyák (fordulónként egy használat, állomás kell a városban)",
        "fi": "Kaupunkikortit (yksi käyttö kierroksessa, asema kaupungissa tarvitaan)",
        "it": "Carte città (un uso per round, serve un emporio nella città)",
        "es": "Cartas de ciudad (un uso por ronda, se necesita un puesto en la ciudad)",
    },
    "used by": {
        "hu": "használta:",
        "fi": "käyttänyt:",
        "it": "usata da",
        "es": "usada por",
    },
    "Contracts held (at most 2 active)": {
        "hu": "Megbízások (legfeljebb 2 aktív)",
        "fi": "Hallussa olevat sopimukset (enintään 2 aktiivista)",
        "it": "Contratti in mano (al massimo 2 attivi)",
        "es": "Contratos en mano (como máximo 2 activos)",
    },
    "Goal cards offered (keep 2):": {
        "hu": "Felkínált célkártyák (2 megtartható):",
        "fi": "Tarjotut tavoitekortit (pidä 2):",
        "it": "Carte obiettivo offerte (tienine 2):",
        "es": "Cartas de objetivo ofrecidas (quédate 2):",
    },
    "Goal cards you discarded:": {
        "hu": "Eldobott célkártyáid:",
        "fi": "Hylkäämäsi tavoitekortit:",
        "it": "Carte obiettivo che hai scartato:",
        "es": "Cartas de objetivo que descartaste:",
    },
    "Spun the {route} compass:": {
        "hu": "Az iránytű pörgetése ({route}):",
        "fi": "Kompassia pyöritettiin ({route}):",
        "it": "Girata la bussola ({route}):",
        "es": "Giro de la brújula ({route}):",
    },
    "the {raiders}!": {
        "hu": "{raiders}!",
        "fi": "{raiders}!",
        "it": "i {raiders}!",
        "es": "¡los {raiders}!",
    },
    "You drew a {card} card.": {
        "hu": "Húztál egy lapot: {card}.",
        "fi": "Nostit kortin: {card}.",
        "it": "Hai pescato una carta {card}.",
        "es": "Robaste una carta {card}.",
    },
    "The Khan's Golden Table names your mission city: {city}.": {
        "hu": "A kán Aranyasztala megnevezi a küldetésvárosodat: {city}.",
        "fi": "Kaanin Kultainen Pöytä nimeää tehtäväkaupunkisi: {city}.",
        "it": "La Tavola d'Oro del Khan indica la città della tua missione: {city}.",
        "es": "La Mesa de Oro del Khan nombra la ciudad de tu misión: {city}.",
    },
    "You took a {card} card from {who}.": {
        "hu": "Elvettél egy lapot ({card}) tőle: {who}.",
        "fi": "Otit kortin {card} pelaajalta {who}.",
        "it": "Hai preso una carta {card} da {who}.",
        "es": "Tomaste una carta {card} de {who}.",
    },
    "{who} made you sell your {card} card for 30 bezants.": {
        "hu": "{who} eladatta veled a lapodat ({card}) 30 bizánci aranyért.",
        "fi": "{who} pakotti sinut myymään korttisi {card} 30 besantilla.",
        "it": "{who} ti ha fatto vendere la tua carta {card} per 30 bisanti.",
        "es": "{who} te hizo vender tu carta {card} por 30 besantes.",
    },
    "{who} made you sell a card for 30 bezants.": {
        "hu": "{who} eladatott veled egy lapot 30 bizánci aranyért.",
        "fi": "{who} pakotti sinut myymään kortin 30 besantilla.",
        "it": "{who} ti ha fatto vendere una carta per 30 bisanti.",
        "es": "{who} te hizo vender una carta por 30 besantes.",
    },
    "1 goods card": {
        "hu": "1 árukártya",
        "fi": "1 tavarakortti",
        "it": "1 carta merce",
        "es": "1 carta de bienes",
    },
    "{n} same goods": {
        "hu": "{n} egyforma áru",
        "fi": "{n} samaa tavaraa",
        "it": "{n} merci uguali",
        "es": "{n} bienes iguales",
    },
    "1 leader": {
        "hu": "1 vezető",
        "fi": "1 johtaja",
        "it": "1 capo",
        "es": "1 jefe",
    },
    "{n} leaders": {
        "hu": "{n} vezető",
        "fi": "{n} johtajaa",
        "it": "{n} capi",
        "es": "{n} jefes",
    },
    "{n} of one colour": {
        "hu": "{n} egyszínű",
        "fi": "{n} samaa väriä",
        "it": "{n} di un colore",
        "es": "{n} de un color",
    },
    "5 colours": {
        "hu": "5 szín",
        "fi": "5 väriä",
        "it": "5 colori",
        "es": "5 colores",
    },
    "4 goods types": {
        "hu": "4 fajta áru",
        "fi": "4 tavaralajia",
        "it": "4 tipi di merci",
        "es": "4 tipos de bienes",
    },
    "free": {
        "hu": "ingyenes",
        "fi": "maksuton",
        "it": "gratis",
        "es": "gratis",
    },
    # ---- accounts (v1.2) ----
    "Not signed in: there is no saved token in {file}.": {
        "hu": "Nem vagy bejelentkezve: a(z) {file} fájlban nincs mentett token.",
        "fi": "Et ole kirjautuneena: tiedostossa {file} ei ole tallennettua tunnistetta.",
        "it": "Non hai effettuato l'accesso: in {file} non c'è alcun token salvato.",
        "es": "No has iniciado sesión: no hay ningún token guardado en {file}.",
    },
    "Signed in to the account {name}.": {
        "hu": "Bejelentkeztél a(z) {name} fiókba.",
        "fi": "Kirjauduit tilille {name}.",
        "it": "Hai effettuato l'accesso all'account {name}.",
        "es": "Has iniciado sesión en la cuenta {name}.",
    },
    "Not signed in: the saved token had stopped already; it is removed.": {
        "hu": "Nem vagy bejelentkezve: a mentett token már nem érvényes; törölve.",
        "fi": "Et ole kirjautuneena: tallennettu tunniste oli jo lakannut toimimasta; se on poistettu.",
        "it": "Non hai effettuato l'accesso: il token salvato non valeva più; è stato rimosso.",
        "es": "No has iniciado sesión: el token guardado ya no valía; se ha borrado.",
    },
    "This client plays as a guest: there is no account to sign out of.": {
        "hu": "Ez a kliens vendégként játszik: nincs fiók, amelyből ki lehetne jelentkezni.",
        "fi": "Tämä asiakas pelaa vieraana: ei ole tiliä, josta kirjautua ulos.",
        "it": "Questo client gioca come ospite: non c'è alcun account da cui uscire.",
        "es": "Este cliente juega como invitado: no hay ninguna cuenta de la que cerrar sesión.",
    },
    "Signed every device out of the account {name}.": {
        "hu": "A(z) {name} fiók minden eszközéről kijelentkeztél.",
        "fi": "Kirjasit tilin {name} ulos kaikilta laitteilta.",
        "it": "Hai chiuso la sessione dell'account {name} su tutti i dispositivi.",
        "es": "Has cerrado la sesión de la cuenta {name} en todos los dispositivos.",
    },
    "Signed out of {name}.": {
        "hu": "Kijelentkeztél: {name}.",
        "fi": "Kirjauduit ulos tililtä {name}.",
        "it": "Sei uscito dall'account {name}.",
        "es": "Has cerrado la sesión de {name}.",
    },
    "Cancelled: no password was given.": {
        "hu": "Megszakítva: nem adtál meg jelszót.",
        "fi": "Peruttu: salasanaa ei annettu.",
        "it": "Annullato: nessuna password inserita.",
        "es": "Cancelado: no se ha dado ninguna contraseña.",
    },
    "No password: type it on a terminal, or set {var} for a script.": {
        "hu": "Nincs jelszó: írd be terminálban, vagy szkripthez állítsd be a(z) {var} változót.",
        "fi": "Ei salasanaa: kirjoita se päätteessä tai aseta skriptiä varten {var}.",
        "it": "Nessuna password: scrivila in un terminale, oppure imposta {var} per uno script.",
        "es": "No hay contraseña: escríbela en un terminal o define {var} para un script.",
    },
    "Password: ": {
        "hu": "Jelszó: ",
        "fi": "Salasana: ",
        "it": "Password: ",
        "es": "Contraseña: ",
    },
    "The same password again: ": {
        "hu": "Ugyanaz a jelszó még egyszer: ",
        "fi": "Sama salasana uudelleen: ",
        "it": "La stessa password di nuovo: ",
        "es": "La misma contraseña otra vez: ",
    },
    "The two passwords differ; nothing was sent.": {
        "hu": "A két jelszó eltér; semmi sem lett elküldve.",
        "fi": "Salasanat eroavat toisistaan; mitään ei lähetetty.",
        "it": "Le due password sono diverse; non è stato inviato nulla.",
        "es": "Las dos contraseñas no coinciden; no se ha enviado nada.",
    },
    "No account has that name and password: check both and try again.": {
        "hu": "Nincs ilyen nevű és jelszavú fiók: ellenőrizd mindkettőt, és próbáld újra.",
        "fi": "Millään tilillä ei ole tätä nimeä ja salasanaa: tarkista molemmat ja yritä uudelleen.",
        "it": "Nessun account ha questo nome e questa password: controlla entrambi e riprova.",
        "es": "Ninguna cuenta tiene ese nombre y esa contraseña: revisa ambos y vuelve a intentarlo.",
    },
    "An account holds that name (or one that reads the same): choose another name, or sign in with --sign-in "
    "if it is yours.": {
        "hu": "Ez a név (vagy egy ugyanígy olvasható) már egy fiókhoz tartozik: válassz másik nevet, vagy "
        "jelentkezz be a --sign-in kapcsolóval, ha a tiéd.",
        "fi": "Nimi (tai samalta näyttävä nimi) kuuluu jo tilille: valitse toinen nimi tai kirjaudu sisään "
        "valitsimella --sign-in, jos tili on sinun.",
        "it": "Questo nome (o uno che si legge allo stesso modo) appartiene già a un account: scegline un altro, "
        "oppure accedi con --sign-in se è tuo.",
        "es": "Ese nombre (u otro que se lee igual) pertenece ya a una cuenta: elige otro, o inicia sesión con "
        "--sign-in si es tuya.",
    },
    "The saved sign-in has stopped (signed out here or on another device, the password changed, or the account "
    "deleted): sign in again with --sign-in, or play as a guest under another --name.": {
        "hu": "A mentett bejelentkezés megszűnt (kijelentkezés itt vagy egy másik eszközön, jelszócsere vagy "
        "törölt fiók): jelentkezz be újra a --sign-in kapcsolóval, vagy játssz vendégként más --name névvel.",
        "fi": "Tallennettu kirjautuminen on päättynyt (uloskirjautuminen täällä tai toisella laitteella, "
        "vaihdettu salasana tai poistettu tili): kirjaudu uudelleen valitsimella --sign-in tai pelaa vieraana "
        "toisella nimellä (--name).",
        "it": "L'accesso salvato non vale più (uscita qui o da un altro dispositivo, password cambiata o account "
        "eliminato): accedi di nuovo con --sign-in, oppure gioca come ospite con un altro --name.",
        "es": "La sesión guardada ya no vale (cerrada aquí o en otro dispositivo, contraseña cambiada o cuenta "
        "borrada): vuelve a iniciar sesión con --sign-in, o juega como invitado con otro --name.",
    },
    "Too many failed sign-ins for this name or from this address: wait a few minutes, then try again.": {
        "hu": "Túl sok sikertelen bejelentkezés ezzel a névvel vagy erről a címről: várj néhány percet, "
        "aztán próbáld újra.",
        "fi": "Liian monta epäonnistunutta kirjautumista tällä nimellä tai tästä osoitteesta: odota muutama "
        "minuutti ja yritä sitten uudelleen.",
        "it": "Troppi accessi falliti per questo nome o da questo indirizzo: aspetta qualche minuto, poi riprova.",
        "es": "Demasiados inicios de sesión fallidos con este nombre o desde esta dirección: espera unos "
        "minutos y vuelve a intentarlo.",
    },
    "Too many accounts were made from this address: try again later.": {
        "hu": "Erről a címről túl sok fiók készült: próbáld újra később.",
        "fi": "Tästä osoitteesta on luotu liian monta tiliä: yritä myöhemmin uudelleen.",
        "it": "Da questo indirizzo sono stati creati troppi account: riprova più tardi.",
        "es": "Se han creado demasiadas cuentas desde esta dirección: inténtalo más tarde.",
    },
    "That password is too short: this server asks for at least {n} characters.": {
        "hu": "Ez a jelszó túl rövid: ez a szerver legalább {n} karaktert kér.",
        "fi": "Salasana on liian lyhyt: tämä palvelin vaatii vähintään {n} merkkiä.",
        "it": "Questa password è troppo corta: questo server chiede almeno {n} caratteri.",
        "es": "Esa contraseña es demasiado corta: este servidor pide al menos {n} caracteres.",
    },
    "The server refused that name ({why}): choose another.": {
        "hu": "A szerver nem fogadta el ezt a nevet ({why}): válassz másikat.",
        "fi": "Palvelin hylkäsi nimen ({why}): valitse toinen.",
        "it": "Il server ha rifiutato questo nome ({why}): scegline un altro.",
        "es": "El servidor rechazó ese nombre ({why}): elige otro.",
    },
    "This client is signed in to an account already: sign out first (--sign-out) to make another.": {
        "hu": "Ez a kliens már be van jelentkezve egy fiókba: előbb jelentkezz ki (--sign-out), ha újat készítenél.",
        "fi": "Tämä asiakas on jo kirjautuneena tilille: kirjaudu ensin ulos (--sign-out) luodaksesi uuden.",
        "it": "Questo client ha già effettuato l'accesso a un account: esci prima (--sign-out) per crearne un altro.",
        "es": "Este cliente ya ha iniciado sesión en una cuenta: cierra antes la sesión (--sign-out) para crear otra.",
    },
    "Only an account can do that, and you play as a guest: start with --sign-up or --sign-in.": {
        "hu": "Ezt csak fiókkal lehet, te pedig vendégként játszol: indítsd a --sign-up vagy a --sign-in kapcsolóval.",
        "fi": "Vain tili voi tehdä tämän, ja pelaat vieraana: käynnistä valitsimella --sign-up tai --sign-in.",
        "it": "Solo un account può farlo, e tu giochi come ospite: avvia con --sign-up o --sign-in.",
        "es": "Solo una cuenta puede hacer eso, y juegas como invitado: empieza con --sign-up o --sign-in.",
    },
    "The account has no such device (any more): type devices to see the list.": {
        "hu": "A fióknak nincs (már) ilyen eszköze: a devices paranccsal láthatod a listát.",
        "fi": "Tilillä ei ole (enää) tällaista laitetta: kirjoita devices nähdäksesi luettelon.",
        "it": "L'account non ha (più) questo dispositivo: scrivi devices per vedere l'elenco.",
        "es": "La cuenta no tiene (ya) ese dispositivo: escribe devices para ver la lista.",
    },
    "The account is signed in on no device.": {
        "hu": "A fiók egyetlen eszközön sincs bejelentkezve.",
        "fi": "Tili ei ole kirjautuneena millään laitteella.",
        "it": "L'account non è connesso su alcun dispositivo.",
        "es": "La cuenta no tiene la sesión iniciada en ningún dispositivo.",
    },
    "Signed in on": {
        "hu": "Bejelentkezve ezeken:",
        "fi": "Kirjautuneena laitteilla",
        "it": "Connesso su",
        "es": "Sesión iniciada en",
    },
    "device": {
        "hu": "eszköz",
        "fi": "laite",
        "it": "dispositivo",
        "es": "dispositivo",
    },
    "since": {
        "hu": "mióta",
        "fi": "alkaen",
        "it": "dal",
        "es": "desde",
    },
    "(this device)": {
        "hu": "(ez az eszköz)",
        "fi": "(tämä laite)",
        "it": "(questo dispositivo)",
        "es": "(este dispositivo)",
    },
    "An account holds that name (or one that reads the same): choose another.": {
        "hu": "Ez a név (vagy egy ugyanígy olvasható) már egy fiókhoz tartozik: válassz másikat.",
        "fi": "Nimi (tai samalta näyttävä nimi) kuuluu jo tilille: valitse toinen.",
        "it": "Questo nome (o uno che si legge allo stesso modo) appartiene già a un account: scegline un altro.",
        "es": "Ese nombre (u otro que se lee igual) pertenece ya a una cuenta: elige otro.",
    },
    "No account has that name and password.": {
        "hu": "Nincs ilyen nevű és jelszavú fiók.",
        "fi": "Millään tilillä ei ole tätä nimeä ja salasanaa.",
        "it": "Nessun account ha questo nome e questa password.",
        "es": "Ninguna cuenta tiene ese nombre y esa contraseña.",
    },
    "Account {name}   devices: where you are signed in   sign out: this device   sign out everywhere   "
    "sign out N: device N": {
        "hu": "Fiók: {name}   devices: hol vagy bejelentkezve   sign out: erről az eszközről   "
        "sign out everywhere: mindenhonnan   sign out N: az N. eszközről",
        "fi": "Tili {name}   devices: missä olet kirjautuneena   sign out: tämä laite   "
        "sign out everywhere: kaikki laitteet   sign out N: laite N",
        "it": "Account {name}   devices: dove hai effettuato l'accesso   sign out: questo dispositivo   "
        "sign out everywhere: ovunque   sign out N: il dispositivo N",
        "es": "Cuenta {name}   devices: dónde tienes la sesión iniciada   sign out: este dispositivo   "
        "sign out everywhere: en todos   sign out N: el dispositivo N",
    },
    "Playing as the guest {name}: start with --sign-up to keep your name and ratings, or --sign-in.": {
        "hu": "Vendégként játszol ({name}): indítsd a --sign-up kapcsolóval, hogy megtartsd a neved és az "
        "értékszámaidat, vagy a --sign-in kapcsolóval.",
        "fi": "Pelaat vieraana nimellä {name}: käynnistä valitsimella --sign-up pitääksesi nimesi ja "
        "luokituksesi, tai --sign-in.",
        "it": "Giochi come ospite {name}: avvia con --sign-up per tenere il tuo nome e le tue valutazioni, "
        "oppure con --sign-in.",
        "es": "Juegas como el invitado {name}: empieza con --sign-up para conservar tu nombre y tus "
        "puntuaciones, o con --sign-in.",
    },
    "Type devices first, then sign out N with a number from that list.": {
        "hu": "Előbb írd be: devices, aztán sign out N, a lista egy számával.",
        "fi": "Kirjoita ensin devices ja sitten sign out N jollakin luettelon numerolla.",
        "it": "Scrivi prima devices, poi sign out N con un numero di quell'elenco.",
        "es": "Escribe primero devices y luego sign out N con un número de esa lista.",
    },
    "Signed the device {device} out of the account.": {
        "hu": "A(z) {device} eszköz kijelentkeztetve a fiókból.",
        "fi": "Laite {device} kirjattiin ulos tililtä.",
        "it": "Il dispositivo {device} è stato disconnesso dall'account.",
        "es": "Se ha cerrado la sesión del dispositivo {device} en la cuenta.",
    },
    "Your current password: ": {
        "hu": "A jelenlegi jelszavad: ",
        "fi": "Nykyinen salasanasi: ",
        "it": "La tua password attuale: ",
        "es": "Tu contraseña actual: ",
    },
    "The new password: ": {
        "hu": "Az új jelszó: ",
        "fi": "Uusi salasana: ",
        "it": "La nuova password: ",
        "es": "La nueva contraseña: ",
    },
    "The same new password again: ": {
        "hu": "Ugyanaz az új jelszó még egyszer: ",
        "fi": "Sama uusi salasana uudelleen: ",
        "it": "La stessa nuova password di nuovo: ",
        "es": "La misma contraseña nueva otra vez: ",
    },
    "Password changed. Every other device of the account is signed out; this one stays.": {
        "hu": "A jelszó megváltozott. A fiók minden más eszköze ki lett jelentkeztetve; ez bejelentkezve marad.",
        "fi": "Salasana vaihdettu. Tilin kaikki muut laitteet kirjattiin ulos; tämä pysyy kirjautuneena.",
        "it": "Password cambiata. Tutti gli altri dispositivi dell'account sono stati disconnessi; questo resta "
        "connesso.",
        "es": "Contraseña cambiada. Se ha cerrado la sesión en todos los demás dispositivos de la cuenta; este sigue "
        "conectado.",
    },
    'Its ratings go, its finished games stay under "deleted player" and its name stays taken for a while. Type the '
    "account's name, {name}, to delete it (anything else cancels):": {
        "hu": "Az értékszámai törlődnek, a befejezett játszmái „deleted player” néven megmaradnak, a neve pedig egy "
        "ideig foglalt marad. A törléshez írd be a fiók nevét ({name}); bármi más megszakítja:",
        "fi": 'Sen luokitukset poistetaan, sen päättyneet pelit jäävät nimelle "deleted player" ja sen nimi pysyy '
        "varattuna jonkin aikaa. Kirjoita tilin nimi, {name}, poistaaksesi sen (mikä tahansa muu peruu):",
        "it": 'I suoi punteggi spariscono, le sue partite finite restano sotto "deleted player" e il suo nome resta '
        "occupato per un po'. Scrivi il nome dell'account, {name}, per eliminarlo (qualsiasi altra cosa annulla):",
        "es": 'Sus puntuaciones se borran, sus partidas terminadas quedan a nombre de "deleted player" y su nombre '
        "sigue ocupado durante un tiempo. Escribe el nombre de la cuenta, {name}, para borrarla (cualquier otra "
        "cosa cancela):",
    },
    "Nothing was deleted.": {
        "hu": "Semmi sem lett törölve.",
        "fi": "Mitään ei poistettu.",
        "it": "Non è stato eliminato nulla.",
        "es": "No se ha borrado nada.",
    },
    "The account {name} is deleted and this client is signed out.": {
        "hu": "A(z) {name} fiók törölve, ez a kliens kijelentkezett.",
        "fi": "Tili {name} on poistettu ja tämä asiakas on kirjattu ulos.",
        "it": "L'account {name} è stato eliminato e questo client è uscito.",
        "es": "La cuenta {name} se ha borrado y este cliente ha cerrado la sesión.",
    },
    "That is not the account's password: nothing was changed.": {
        "hu": "Ez nem a fiók jelszava: semmi sem változott.",
        "fi": "Tämä ei ole tilin salasana: mitään ei muutettu.",
        "it": "Questa non è la password dell'account: non è cambiato nulla.",
        "es": "Esa no es la contraseña de la cuenta: no se ha cambiado nada.",
    },
    "password: set a new password   delete account: delete the account for good": {
        "hu": "password: új jelszó   delete account: a fiók végleges törlése",
        "fi": "password: uusi salasana   delete account: poista tili pysyvästi",
        "it": "password: imposta una nuova password   delete account: elimina l'account per sempre",
        "es": "password: poner una contraseña nueva   delete account: borrar la cuenta para siempre",
    },
    "next, prev: the next or previous page   ratings GAME page N   player N or player NAME: that player's page   "
    "me: your page": {
        "hu": "next, prev: következő vagy előző oldal   ratings JÁTÉK page N   player N vagy player NÉV: a játékos "
        "oldala   me: a saját oldalad",
        "fi": "next, prev: seuraava tai edellinen sivu   ratings PELI page N   player N tai player NIMI: pelaajan "
        "sivu   me: oma sivusi",
        "it": "next, prev: pagina successiva o precedente   ratings GIOCO page N   player N o player NOME: la pagina "
        "del giocatore   me: la tua pagina",
        "es": "next, prev: página siguiente o anterior   ratings JUEGO page N   player N o player NOMBRE: la página "
        "del jugador   me: tu página",
    },
    "Your current password (hidden; Enter cancels):": {
        "hu": "A jelenlegi jelszavad (rejtve; Enter: mégse):",
        "fi": "Nykyinen salasanasi (piilotettu; Enter peruu):",
        "it": "La tua password attuale (nascosta; Invio per annullare):",
        "es": "Tu contraseña actual (oculta; Intro para cancelar):",
    },
    "The new password (hidden):": {
        "hu": "Az új jelszó (rejtve):",
        "fi": "Uusi salasana (piilotettu):",
        "it": "La nuova password (nascosta):",
        "es": "La nueva contraseña (oculta):",
    },
    "The same new password again:": {
        "hu": "Ugyanaz az új jelszó még egyszer:",
        "fi": "Sama uusi salasana uudelleen:",
        "it": "La stessa nuova password di nuovo:",
        "es": "La misma contraseña nueva otra vez:",
    },
    "Deleting the account {name} cannot be undone. Its password (hidden; Enter cancels):": {
        "hu": "A(z) {name} fiók törlése nem vonható vissza. A fiók jelszava (rejtve; Enter: mégse):",
        "fi": "Tilin {name} poistoa ei voi perua. Tilin salasana (piilotettu; Enter peruu):",
        "it": "L'eliminazione dell'account {name} non si può annullare. La sua password (nascosta; Invio per "
        "annullare):",
        "es": "Borrar la cuenta {name} no se puede deshacer. Su contraseña (oculta; Intro para cancelar):",
    },
    "Type ratings GAME first (next and prev then turn its pages).": {
        "hu": "Előbb írd be: ratings JÁTÉK (aztán a next és a prev lapoz).",
        "fi": "Kirjoita ensin ratings PELI (next ja prev vaihtavat sitten sivua).",
        "it": "Scrivi prima ratings GIOCO (poi next e prev cambiano pagina).",
        "es": "Escribe primero ratings JUEGO (luego next y prev pasan las páginas).",
    },
    "This is the first page of the leaderboard.": {
        "hu": "Ez a ranglista első oldala.",
        "fi": "Tämä on tulostaulukon ensimmäinen sivu.",
        "it": "Questa è la prima pagina della classifica.",
        "es": "Esta es la primera página de la clasificación.",
    },
    "The leaderboard of {game} has no page {page}.": {
        "hu": "A(z) {game} ranglistájának nincs {page}. oldala.",
        "fi": "Pelin {game} tulostaulukossa ei ole sivua {page}.",
        "it": "La classifica di {game} non ha una pagina {page}.",
        "es": "La clasificación de {game} no tiene página {page}.",
    },
    "There is no {what} on the leaderboard shown: type ratings GAME first (next and prev turn its pages), then "
    "player N or player NAME.": {
        "hu": "A látható ranglistán nincs ilyen: {what}. Előbb írd be: ratings JÁTÉK (a next és a prev lapoz), "
        "aztán: player N vagy player NÉV.",
        "fi": "Näytetyllä tulostaulukolla ei ole riviä {what}: kirjoita ensin ratings PELI (next ja prev vaihtavat "
        "sivua), sitten player N tai player NIMI.",
        "it": "Nella classifica mostrata non c'è {what}: scrivi prima ratings GIOCO (next e prev cambiano pagina), "
        "poi player N o player NOME.",
        "es": "No hay {what} en la clasificación mostrada: escribe primero ratings JUEGO (next y prev pasan las "
        "páginas) y luego player N o player NOMBRE.",
    },
    "Ratings: {game}, page {page}": {
        "hu": "Értékszámok: {game}, {page}. oldal",
        "fi": "Luokitukset: {game}, sivu {page}",
        "it": "Classifica: {game}, pagina {page}",
        "es": "Clasificación: {game}, página {page}",
    },
    "provisional": {
        "hu": "ideiglenes",
        "fi": "alustava",
        "it": "provvisorio",
        "es": "provisional",
    },
    "provisional: fewer than {n} rated games so far; such a rating is shown at 0 or above": {
        "hu": "ideiglenes: eddig kevesebb mint {n} értékelt játszma; az ilyen értékszám legalább 0",
        "fi": "alustava: toistaiseksi alle {n} pisteytettyä peliä; tällainen luokitus näytetään vähintään nollana",
        "it": "provvisorio: finora meno di {n} partite valutate; un punteggio così è mostrato a 0 o più",
        "es": "provisional: menos de {n} partidas puntuadas hasta ahora; esa puntuación se muestra en 0 o más",
    },
    "(no name known)": {
        "hu": "(ismeretlen név)",
        "fi": "(nimi ei tiedossa)",
        "it": "(nome sconosciuto)",
        "es": "(nombre desconocido)",
    },
    "(account)": {
        "hu": "(fiók)",
        "fi": "(tili)",
        "it": "(account)",
        "es": "(cuenta)",
    },
    "(guest)": {
        "hu": "(vendég)",
        "fi": "(vieras)",
        "it": "(ospite)",
        "es": "(invitado)",
    },
    "Player {name}": {
        "hu": "Játékos: {name}",
        "fi": "Pelaaja {name}",
        "it": "Giocatore {name}",
        "es": "Jugador {name}",
    },
    "Ratings": {
        "hu": "Értékszámok",
        "fi": "Luokitukset",
        "it": "Punteggi",
        "es": "Puntuaciones",
    },
    "place": {
        "hu": "hely",
        "fi": "sija",
        "it": "posizione",
        "es": "puesto",
    },
    "No rating yet.": {
        "hu": "Még nincs értékszám.",
        "fi": "Ei vielä luokitusta.",
        "it": "Ancora nessun punteggio.",
        "es": "Aún no hay puntuación.",
    },
    "Recent games": {
        "hu": "Legutóbbi játszmák",
        "fi": "Viimeisimmät pelit",
        "it": "Partite recenti",
        "es": "Partidas recientes",
    },
    "rating after": {
        "hu": "értékszám utána",
        "fi": "luokitus jälkeen",
        "it": "punteggio dopo",
        "es": "puntuación después",
    },
    # ---- moderation (v1.2) ----
    "You are banned from this server.": {
        "hu": "Ki vagy tiltva erről a szerverről.",
        "fi": "Sinulla on porttikielto tälle palvelimelle.",
        "it": "Sei stato bandito da questo server.",
        "es": "Tienes prohibida la entrada en este servidor.",
    },
    "The room's host muted your chat in this room: your line was not sent.": {
        "hu": "A szoba gazdája elnémította a csevegésedet ebben a szobában: a sorod nem ment el.",
        "fi": "Huoneen isäntä mykisti keskustelusi tässä huoneessa: riviäsi ei lähetetty.",
        "it": "L'host della stanza ha silenziato la tua chat in questa stanza: il tuo messaggio non è stato inviato.",
        "es": "El anfitrión de la sala ha silenciado tu chat en esta sala: tu línea no se ha enviado.",
    },
    "That line holds a word this server does not allow: it was not sent.": {
        "hu": "Ebben a sorban olyan szó van, amelyet ez a szerver nem enged: nem ment el.",
        "fi": "Rivillä on sana, jota tämä palvelin ei salli: sitä ei lähetetty.",
        "it": "Quel messaggio contiene una parola che questo server non permette: non è stato inviato.",
        "es": "Esa línea contiene una palabra que este servidor no permite: no se ha enviado.",
    },
    "block NAME: hide a player's chat   unblock NAME   blocked: whom you block   report NAME REASON: tell the "
    "moderators": {
        "hu": "block NÉV: egy játékos csevegésének elrejtése   unblock NÉV   blocked: kiket tiltottál le   "
        "report NÉV OK: jelentés a moderátoroknak",
        "fi": "block NIMI: piilota pelaajan keskustelu   unblock NIMI   blocked: ketkä olet estänyt   "
        "report NIMI SYY: ilmoita moderaattoreille",
        "it": "block NOME: nascondi la chat di un giocatore   unblock NOME   blocked: chi hai bloccato   "
        "report NOME MOTIVO: segnala ai moderatori",
        "es": "block NOMBRE: ocultar el chat de un jugador   unblock NOMBRE   blocked: a quién bloqueas   "
        "report NOMBRE MOTIVO: avisar a los moderadores",
    },
    "mute SEAT or NAME, unmute SEAT or NAME: the room's host silences or frees a seat's chat": {
        "hu": "mute HELY vagy NÉV, unmute HELY vagy NÉV: a szoba gazdája elnémítja vagy újra engedi egy hely "
        "csevegését",
        "fi": "mute PAIKKA tai NIMI, unmute PAIKKA tai NIMI: huoneen isäntä mykistää paikan keskustelun tai "
        "vapauttaa sen",
        "it": "mute POSTO o NOME, unmute POSTO o NOME: l'host della stanza silenzia o riattiva la chat di un posto",
        "es": "mute ASIENTO o NOMBRE, unmute ASIENTO o NOMBRE: el anfitrión de la sala silencia o libera el chat "
        "de un asiento",
    },
    "Closed by a moderator: {message}": {
        "hu": "Egy moderátor bezárta: {message}",
        "fi": "Moderaattori sulki huoneen: {message}",
        "it": "Chiusa da un moderatore: {message}",
        "es": "Cerrada por un moderador: {message}",
    },
    "Room {room} was closed by a moderator: {message}": {
        "hu": "A(z) {room} szobát egy moderátor bezárta: {message}",
        "fi": "Moderaattori sulki huoneen {room}: {message}",
        "it": "La stanza {room} è stata chiusa da un moderatore: {message}",
        "es": "Un moderador ha cerrado la sala {room}: {message}",
    },
    "(muted)": {
        "hu": "(némítva)",
        "fi": "(mykistetty)",
        "it": "(silenziato)",
        "es": "(silenciado)",
    },
    "That is you.": {
        "hu": "Ez te vagy.",
        "fi": "Se olet sinä.",
        "it": "Sei tu.",
        "es": "Ese eres tú.",
    },
    "{name} holds a seat here but has written nothing in the chat, so this client cannot tell who that is (the "
    "server shows no player ids).": {
        "hu": "{name} ül itt egy helyen, de semmit sem írt a csevegésbe, így ez a kliens nem tudja, ki az (a szerver "
        "nem mutat játékosazonosítót).",
        "fi": "{name} istuu täällä paikalla mutta ei ole kirjoittanut keskusteluun mitään, joten tämä asiakas ei "
        "tiedä, kuka se on (palvelin ei näytä pelaajien tunnisteita).",
        "it": "{name} occupa un posto qui ma non ha scritto nulla in chat, quindi questo client non può sapere chi "
        "sia (il server non mostra gli id dei giocatori).",
        "es": "{name} ocupa un asiento aquí pero no ha escrito nada en el chat, así que este cliente no puede saber "
        "quién es (el servidor no muestra los id de los jugadores).",
    },
    "Nobody called {name} is in the chat or the seats here.": {
        "hu": "Senki sincs {name} néven a csevegésben vagy a helyeken.",
        "fi": "Kukaan nimeltä {name} ei ole täällä keskustelussa eikä paikoilla.",
        "it": "Nessuno di nome {name} è nella chat o ai posti qui.",
        "es": "Nadie llamado {name} está en el chat ni en los asientos de aquí.",
    },
    "More than one player called {name} wrote in the chat: this client cannot tell which one you mean.": {
        "hu": "Több {name} nevű játékos is írt a csevegésbe: ez a kliens nem tudja, melyikre gondolsz.",
        "fi": "Useampi pelaaja nimeltä {name} kirjoitti keskusteluun: tämä asiakas ei tiedä, ketä tarkoitat.",
        "it": "Più di un giocatore di nome {name} ha scritto in chat: questo client non sa quale intendi.",
        "es": "Más de un jugador llamado {name} ha escrito en el chat: este cliente no sabe a cuál te refieres.",
    },
    "Name the player: {usage}": {
        "hu": "Add meg a játékost: {usage}",
        "fi": "Anna pelaajan nimi: {usage}",
        "it": "Indica il giocatore: {usage}",
        "es": "Indica el jugador: {usage}",
    },
    "Blocked {name}: you will see none of their chat lines.": {
        "hu": "{name} letiltva: egyetlen csevegősorát sem fogod látni.",
        "fi": "{name} estetty: et näe yhtään hänen keskustelurivejään.",
        "it": "{name} bloccato: non vedrai nessuno dei suoi messaggi in chat.",
        "es": "{name} bloqueado: no verás ninguna de sus líneas de chat.",
    },
    "You do not block anybody called {name}.": {
        "hu": "Nem tiltottál le senkit {name} néven.",
        "fi": "Et ole estänyt ketään nimeltä {name}.",
        "it": "Non blocchi nessuno di nome {name}.",
        "es": "No bloqueas a nadie llamado {name}.",
    },
    "Unblocked {name}: their chat lines show again.": {
        "hu": "{name} tiltása feloldva: a csevegősorai újra látszanak.",
        "fi": "Esto poistettu: {name}; hänen keskustelurivinsä näkyvät taas.",
        "it": "{name} sbloccato: i suoi messaggi in chat si vedono di nuovo.",
        "es": "{name} desbloqueado: sus líneas de chat se ven de nuevo.",
    },
    "You block nobody.": {
        "hu": "Senkit sem tiltottál le.",
        "fi": "Et ole estänyt ketään.",
        "it": "Non blocchi nessuno.",
        "es": "No bloqueas a nadie.",
    },
    "You block: {names}": {
        "hu": "Letiltottad: {names}",
        "fi": "Olet estänyt: {names}",
        "it": "Blocchi: {names}",
        "es": "Bloqueas a: {names}",
    },
    "Name the player and say why: {usage}": {
        "hu": "Add meg a játékost és az okot: {usage}",
        "fi": "Anna pelaajan nimi ja syy: {usage}",
        "it": "Indica il giocatore e il motivo: {usage}",
        "es": "Indica el jugador y el motivo: {usage}",
    },
    "Reported {name} to the moderators.": {
        "hu": "{name} jelentve a moderátoroknak.",
        "fi": "{name} ilmoitettu moderaattoreille.",
        "it": "{name} segnalato ai moderatori.",
        "es": "{name} denunciado a los moderadores.",
    },
    "mute and unmute are for the host of the room on screen: open the room first.": {
        "hu": "A mute és az unmute a látható szoba gazdájának való: előbb nyisd meg a szobát.",
        "fi": "mute ja unmute ovat näytöllä olevan huoneen isännälle: avaa ensin huone.",
        "it": "mute e unmute sono per l'host della stanza sullo schermo: apri prima la stanza.",
        "es": "mute y unmute son para el anfitrión de la sala en pantalla: abre primero la sala.",
    },
    "Name the seat: {usage}": {
        "hu": "Add meg a helyet: {usage}",
        "fi": "Anna paikka: {usage}",
        "it": "Indica il posto: {usage}",
        "es": "Indica el asiento: {usage}",
    },
    "Choose a seat from 1 to {n}.": {
        "hu": "Válassz helyet 1 és {n} között.",
        "fi": "Valitse paikka väliltä 1–{n}.",
        "it": "Scegli un posto da 1 a {n}.",
        "es": "Elige un asiento del 1 al {n}.",
    },
    "No seat of this room is called {name}.": {
        "hu": "Ebben a szobában nincs {name} nevű hely.",
        "fi": "Tässä huoneessa ei ole paikkaa nimeltä {name}.",
        "it": "Nessun posto di questa stanza si chiama {name}.",
        "es": "Ningún asiento de esta sala se llama {name}.",
    },
    "The game is over: there is no chat to mute any more.": {
        "hu": "A játék véget ért: már nincs mit elnémítani.",
        "fi": "Peli on päättynyt: mykistettävää keskustelua ei enää ole.",
        "it": "La partita è finita: non c'è più nessuna chat da silenziare.",
        "es": "La partida ha terminado: ya no hay chat que silenciar.",
    },
    "Only the room's host can mute or unmute a seat.": {
        "hu": "Csak a szoba gazdája némíthat el vagy engedhet újra egy helyet.",
        "fi": "Vain huoneen isäntä voi mykistää paikan tai poistaa mykistyksen.",
        "it": "Solo l'host della stanza può silenziare o riattivare un posto.",
        "es": "Solo el anfitrión de la sala puede silenciar o liberar un asiento.",
    },
    "Choose a seat another person holds (not a server bot, not your own).": {
        "hu": "Válassz egy másik ember által elfoglalt helyet (ne szerverrobotét, ne a sajátodat).",
        "fi": "Valitse toisen ihmisen paikka (ei palvelimen bottia, ei omaasi).",
        "it": "Scegli un posto occupato da un'altra persona (non un bot del server, non il tuo).",
        "es": "Elige un asiento que ocupe otra persona (no un bot del servidor, no el tuyo).",
    },
    "Muted {name}: their chat in this room is refused.": {
        "hu": "{name} elnémítva: a csevegését ebben a szobában a szerver elutasítja.",
        "fi": "{name} mykistetty: hänen keskustelunsa tässä huoneessa torjutaan.",
        "it": "{name} silenziato: la sua chat in questa stanza viene rifiutata.",
        "es": "{name} silenciado: su chat en esta sala se rechaza.",
    },
    "Unmuted {name}.": {
        "hu": "{name} némítása feloldva.",
        "fi": "Mykistys poistettu: {name}.",
        "it": "{name} non è più silenziato.",
        "es": "{name} ya no está silenciado.",
    },
    (
        "games: my games   open N: play game N of that list   create GAME SEATS --turn-based [DAYS] [--on-expiry "
        "wait|bot|end] [--bank TIME]   bell on|off: the bell on your move"
    ): {
        "hu": (
            "games: játékaim   open N: az N. játék a listából   create JÁTÉK HELYEK --turn-based [NAPOK] "
            "[--on-expiry wait|bot|end] [--bank IDŐ]   bell on|off: csengő, amikor te lépsz"
        ),
        "fi": (
            "games: omat pelini   open N: pelaa listan peliä N   create PELI PAIKAT --turn-based [PÄIVÄT] "
            "[--on-expiry wait|bot|end] [--bank AIKA]   bell on|off: äänimerkki vuorollasi"
        ),
        "it": (
            "games: le mie partite   open N: gioca la partita N dell'elenco   create GIOCO POSTI --turn-based "
            "[GIORNI] [--on-expiry wait|bot|end] [--bank TEMPO]   bell on|off: il campanello quando tocca a te"
        ),
        "es": (
            "games: mis partidas   open N: jugar la partida N de la lista   create JUEGO ASIENTOS --turn-based "
            "[DÍAS] [--on-expiry wait|bot|end] [--bank TIEMPO]   bell on|off: la campana cuando te toca"
        ),
    },
    "--bank goes with --turn-based.": {
        "hu": "A --bank a --turn-based mellé való.",
        "fi": "--bank käy vain yhdessä valinnan --turn-based kanssa.",
        "it": "--bank va con --turn-based.",
        "es": "--bank va con --turn-based.",
    },
    "{line} is not a time bank: days (1, 0.5) or a number with d, h, m or s (12h); 0 for none.": {
        "hu": "{line} nem időtartalék: napok (1, 0.5) vagy egy szám d, h, m vagy s betűvel (12h); 0: nincs.",
        "fi": "{line} ei ole aikapankki: päiviä (1, 0.5) tai luku ja d, h, m tai s (12h); 0: ei mitään.",
        "it": "{line} non è una riserva di tempo: giorni (1, 0.5) o un numero con d, h, m o s (12h); 0 per nessuna.",
        "es": "{line} no es una reserva de tiempo: días (1, 0.5) o un número con d, h, m o s (12h); 0 para ninguna.",
    },
    "A time bank is at most 14 days (a live room's at most a day).": {
        "hu": "Az időtartalék legfeljebb 14 nap (élő szobában legfeljebb egy nap).",
        "fi": "Aikapankki on enintään 14 päivää (live-huoneessa enintään päivä).",
        "it": "Una riserva di tempo è al massimo di 14 giorni (in una stanza dal vivo al massimo un giorno).",
        "es": "Una reserva de tiempo es de 14 días como mucho (en una sala en vivo, un día como mucho).",
    },
    "Each player also has a time bank of {time}.": {
        "hu": "Minden játékosnak van {time} időtartaléka is.",
        "fi": "Jokaisella pelaajalla on lisäksi {time} aikapankki.",
        "it": "Ogni giocatore ha anche una riserva di tempo di {time}.",
        "es": "Cada jugador tiene además una reserva de tiempo de {time}.",
    },
    "(the clock played for {name})": {
        "hu": "(az óra lépett {name} helyett)",
        "fi": "(kello pelasi pelaajan {name} puolesta)",
        "it": "(l'orologio ha giocato per {name})",
        "es": "(el reloj jugó por {name})",
    },
    "time bank: {banks}": {
        "hu": "időtartalék: {banks}",
        "fi": "aikapankki: {banks}",
        "it": "riserva di tempo: {banks}",
        "es": "reserva de tiempo: {banks}",
    },
    "start: start now, bots in the empty seats (the host)   games: my games   bell on|off": {
        "hu": "start: indítás most, robotok az üres helyekre (a gazda)   games: játékaim   bell on|off",
        "fi": "start: aloita nyt, botit tyhjille paikoille (isäntä)   games: omat pelini   bell on|off",
        "it": "start: inizia ora, bot nei posti vuoti (l'host)   games: le mie partite   bell on|off",
        "es": "start: empezar ya, bots en los asientos vacíos (el anfitrión)   games: mis partidas   bell on|off",
    },
    "Room {room}: {sentence}": {
        "hu": "{room} szoba: {sentence}",
        "fi": "Huone {room}: {sentence}",
        "it": "Stanza {room}: {sentence}",
        "es": "Sala {room}: {sentence}",
    },
    "Your move": {
        "hu": "Te lépsz",
        "fi": "Sinun siirtosi",
        "it": "Tocca a te",
        "es": "Te toca mover",
    },
    "open N: play game N of this list": {
        "hu": "open N: az N. játék ebből a listából",
        "fi": "open N: pelaa tämän listan peliä N",
        "it": "open N: gioca la partita N di questo elenco",
        "es": "open N: jugar la partida N de esta lista",
    },
    "The bell rings when it becomes your move.": {
        "hu": "A csengő megszólal, amikor te következel.",
        "fi": "Äänimerkki soi, kun on sinun siirtosi.",
        "it": "Il campanello suona quando tocca a te.",
        "es": "La campana suena cuando te toca mover.",
    },
    "The bell is off.": {
        "hu": "A csengő ki van kapcsolva.",
        "fi": "Äänimerkki on pois päältä.",
        "it": "Il campanello è spento.",
        "es": "La campana está apagada.",
    },
    "It is your move in room {room}: games lists your games.": {
        "hu": "Te lépsz a(z) {room} szobában: a games listázza a játékaidat.",
        "fi": "On sinun siirtosi huoneessa {room}: games näyttää pelisi.",
        "it": "Tocca a te nella stanza {room}: games elenca le tue partite.",
        "es": "Te toca mover en la sala {room}: games muestra tus partidas.",
    },
    "The game has started already.": {
        "hu": "A játék már elkezdődött.",
        "fi": "Peli on jo alkanut.",
        "it": "La partita è già iniziata.",
        "es": "La partida ya ha empezado.",
    },
    "Take a seat first (t): only the room's host can start it.": {
        "hu": "Előbb foglalj helyet (t): csak a szoba gazdája indíthatja el.",
        "fi": "Ota ensin paikka (t): vain huoneen isäntä voi aloittaa pelin.",
        "it": "Prima prendi un posto (t): solo l'host della stanza può avviarla.",
        "es": "Primero toma un asiento (t): solo el anfitrión de la sala puede empezarla.",
    },
    "Only the room's host (the player who opened it) can start it now; the bots come when its time runs out.": {
        "hu": "Most csak a szoba gazdája (aki megnyitotta) indíthatja el; a robotok akkor jönnek, amikor lejár az idő.",
        "fi": "Vain huoneen isäntä (sen avannut pelaaja) voi aloittaa nyt; botit tulevat, kun aika loppuu.",
        "it": "Solo l'host della stanza (chi l'ha aperta) può avviarla ora; i bot arrivano quando scade il tempo.",
        "es": (
            "Solo el anfitrión de la sala (quien la abrió) puede empezarla ahora; los bots llegan cuando se acaba "
            "el tiempo."
        ),
    },
    "Started now: server bots took the empty seats.": {
        "hu": "Elindítva: az üres helyekre szerver-robotok ültek.",
        "fi": "Aloitettu: palvelimen botit ottivat tyhjät paikat.",
        "it": "Avviata: i bot del server hanno preso i posti vuoti.",
        "es": "Empezada: los bots del servidor ocuparon los asientos vacíos.",
    },
    "It is your move in one of your games: open N plays it.": {
        "hu": "Az egyik játékodban te lépsz: az open N megnyitja.",
        "fi": "Yhdessä peleistäsi on sinun siirtosi: open N avaa sen.",
        "it": "In una delle tue partite tocca a te: open N la apre.",
        "es": "En una de tus partidas te toca mover: open N la abre.",
    },
    "It is your move in {n} of your games: open N plays one.": {
        "hu": "{n} játékodban te lépsz: az open N megnyit egyet.",
        "fi": "{n} pelissäsi on sinun siirtosi: open N avaa yhden.",
        "it": "In {n} delle tue partite tocca a te: open N ne apre una.",
        "es": "En {n} de tus partidas te toca mover: open N abre una.",
    },
    "There is no game {n} in your list (games shows it).": {
        "hu": "Nincs {n}. játék a listádban (a games mutatja).",
        "fi": "Listallasi ei ole peliä {n} (games näyttää sen).",
        "it": "Non c'è una partita {n} nel tuo elenco (games lo mostra).",
        "es": "No hay partida {n} en tu lista (games la muestra).",
    },
    "Usage: {usage}": {
        "hu": "Használat: {usage}",
        "fi": "Käyttö: {usage}",
        "it": "Uso: {usage}",
        "es": "Uso: {usage}",
    },
    "--on-expiry is wait, bot or end.": {
        "hu": "Az --on-expiry értéke wait, bot vagy end.",
        "fi": "--on-expiry on wait, bot tai end.",
        "it": "--on-expiry è wait, bot o end.",
        "es": "--on-expiry es wait, bot o end.",
    },
    "--on-expiry goes with --turn-based.": {
        "hu": "Az --on-expiry a --turn-based mellé való.",
        "fi": "--on-expiry käy vain yhdessä valinnan --turn-based kanssa.",
        "it": "--on-expiry va con --turn-based.",
        "es": "--on-expiry va con --turn-based.",
    },
    "(late)": {
        "hu": "(késik)",
        "fi": "(myöhässä)",
        "it": "(in ritardo)",
        "es": "(con retraso)",
    },
    "{line} is not a number of seconds before the bots come (0 to 86400).": {
        "hu": "{line} nem a robotok érkezéséig hátralévő másodpercek száma (0–86400).",
        "fi": "{line} ei ole sekuntimäärä ennen bottien tuloa (0–86400).",
        "it": "{line} non è un numero di secondi prima dell'arrivo dei bot (da 0 a 86400).",
        "es": "{line} no es un número de segundos antes de que lleguen los bots (de 0 a 86400).",
    },
    "late: {names} (the game waits for them)": {
        "hu": "késik: {names} (a játék vár rájuk)",
        "fi": "myöhässä: {names} (peli odottaa heitä)",
        "it": "in ritardo: {names} (la partita li aspetta)",
        "es": "con retraso: {names} (la partida los espera)",
    },
    "(turn-based)": {
        "hu": "(körökre osztott)",
        "fi": "(vuoropohjainen)",
        "it": "(a turni)",
        "es": "(por turnos)",
    },
    "a late player is waited for": {
        "hu": "a késlekedő játékosra a játék vár",
        "fi": "myöhästynyttä pelaajaa odotetaan",
        "it": "si aspetta chi è in ritardo",
        "es": "se espera al jugador que se retrasa",
    },
    "a late player's bot moves for them": {
        "hu": "a késlekedő játékos helyett robot lép",
        "fi": "myöhästyneen pelaajan puolesta siirtää botti",
        "it": "per chi è in ritardo muove un bot",
        "es": "un bot juega por el jugador que se retrasa",
    },
    "the game ends when a player's time runs out": {
        "hu": "a játék véget ér, ha egy játékos ideje lejár",
        "fi": "peli päättyy, kun pelaajan aika loppuu",
        "it": "la partita finisce quando scade il tempo di un giocatore",
        "es": "la partida termina cuando a un jugador se le acaba el tiempo",
    },
    "{line} is not a time for a move: days (3, 0.5) or a number with d, h, m or s (12h).": {
        "hu": "{line} nem egy lépés ideje: napok (3, 0.5) vagy egy szám d, h, m vagy s betűvel (12h).",
        "fi": "{line} ei ole siirron aika: päiviä (3, 0.5) tai luku ja d, h, m tai s (12h).",
        "it": "{line} non è un tempo per mossa: giorni (3, 0.5) o un numero con d, h, m o s (12h).",
        "es": "{line} no es un tiempo por jugada: días (3, 0.5) o un número con d, h, m o s (12h).",
    },
    "A move's time is from 10 seconds to 14 days.": {
        "hu": "Egy lépés ideje 10 másodperc és 14 nap között lehet.",
        "fi": "Siirron aika on 10 sekunnista 14 päivään.",
        "it": "Il tempo di una mossa va da 10 secondi a 14 giorni.",
        "es": "El tiempo de una jugada va de 10 segundos a 14 días.",
    },
    "1 day": {
        "hu": "1 nap",
        "fi": "1 päivä",
        "it": "1 giorno",
        "es": "1 día",
    },
    "{n} days": {
        "hu": "{n} nap",
        "fi": "{n} päivää",
        "it": "{n} giorni",
        "es": "{n} días",
    },
    "1 hour": {
        "hu": "1 óra",
        "fi": "1 tunti",
        "it": "1 ora",
        "es": "1 hora",
    },
    "{n} hours": {
        "hu": "{n} óra",
        "fi": "{n} tuntia",
        "it": "{n} ore",
        "es": "{n} horas",
    },
    "1 minute": {
        "hu": "1 perc",
        "fi": "1 minuutti",
        "it": "1 minuto",
        "es": "1 minuto",
    },
    "{n} minutes": {
        "hu": "{n} perc",
        "fi": "{n} minuuttia",
        "it": "{n} minuti",
        "es": "{n} minutos",
    },
    "{n} seconds": {
        "hu": "{n} másodperc",
        "fi": "{n} sekuntia",
        "it": "{n} secondi",
        "es": "{n} segundos",
    },
    "late": {
        "hu": "késésben",
        "fi": "myöhässä",
        "it": "in ritardo",
        "es": "con retraso",
    },
    "in 1 day": {
        "hu": "1 nap múlva",
        "fi": "1 päivän päästä",
        "it": "tra 1 giorno",
        "es": "en 1 día",
    },
    "in {n} days": {
        "hu": "{n} nap múlva",
        "fi": "{n} päivän päästä",
        "it": "tra {n} giorni",
        "es": "en {n} días",
    },
    "in 1 hour": {
        "hu": "1 óra múlva",
        "fi": "1 tunnin päästä",
        "it": "tra 1 ora",
        "es": "en 1 hora",
    },
    "in {n} hours": {
        "hu": "{n} óra múlva",
        "fi": "{n} tunnin päästä",
        "it": "tra {n} ore",
        "es": "en {n} horas",
    },
    "in 1 minute": {
        "hu": "1 perc múlva",
        "fi": "1 minuutin päästä",
        "it": "tra 1 minuto",
        "es": "en 1 minuto",
    },
    "in {n} minutes": {
        "hu": "{n} perc múlva",
        "fi": "{n} minuutin päästä",
        "it": "tra {n} minuti",
        "es": "en {n} minutos",
    },
    "in {n} seconds": {
        "hu": "{n} másodperc múlva",
        "fi": "{n} sekunnin päästä",
        "it": "tra {n} secondi",
        "es": "en {n} segundos",
    },
    "Turn-based: {rule}": {
        "hu": "Körökre osztott játék: {rule}",
        "fi": "Vuoropohjainen: {rule}",
        "it": "A turni: {rule}",
        "es": "Por turnos: {rule}",
    },
    "Turn-based: {time} a move; {rule}": {
        "hu": "Körökre osztott játék: lépésenként {time}; {rule}",
        "fi": "Vuoropohjainen: {time} siirtoa kohden; {rule}",
        "it": "A turni: {time} per mossa; {rule}",
        "es": "Por turnos: {time} por jugada; {rule}",
    },
    "The game ended: time ran out for {name}": {
        "hu": "A játék véget ért: lejárt {name} ideje",
        "fi": "Peli päättyi: aika loppui pelaajalta {name}",
        "it": "La partita è finita: il tempo è scaduto per {name}",
        "es": "La partida terminó: se le acabó el tiempo a {name}",
    },
    "The game ended: {message}": {
        "hu": "A játék véget ért: {message}",
        "fi": "Peli päättyi: {message}",
        "it": "La partita è finita: {message}",
        "es": "La partida terminó: {message}",
    },
    "The game ended: a player's time ran out.": {
        "hu": "A játék véget ért: egy játékos ideje lejárt.",
        "fi": "Peli päättyi: pelaajan aika loppui.",
        "it": "La partita è finita: il tempo di un giocatore è scaduto.",
        "es": "La partida terminó: a un jugador se le acabó el tiempo.",
    },
    "Bots fill the empty seats in {s} s": {
        "hu": "{s} mp múlva robotok ülnek az üres helyekre",
        "fi": "Botit täyttävät tyhjät paikat {s} s kuluttua",
        "it": "I bot occupano i posti vuoti tra {s} s",
        "es": "Los bots ocupan los asientos vacíos en {s} s",
    },
    "Bots fill the empty seats in {s} s at the latest": {
        "hu": "Legkésőbb {s} mp múlva robotok ülnek az üres helyekre",
        "fi": "Botit täyttävät tyhjät paikat viimeistään {s} s kuluttua",
        "it": "I bot occupano i posti vuoti al più tardi tra {s} s",
        "es": "Los bots ocupan los asientos vacíos en {s} s como mucho",
    },
    "your turn": {
        "hu": "te jössz",
        "fi": "sinun vuorosi",
        "it": "tocca a te",
        "es": "te toca",
    },
    "waiting for players": {
        "hu": "játékosokra vár",
        "fi": "odottaa pelaajia",
        "it": "in attesa di giocatori",
        "es": "esperando jugadores",
    },
    "their turn": {
        "hu": "más jön",
        "fi": "muiden vuoro",
        "it": "tocca agli altri",
        "es": "les toca a otros",
    },
    "You hold no seat in an unfinished game.": {
        "hu": "Nincs helyed egyetlen folyamatban lévő játékban sem.",
        "fi": "Sinulla ei ole paikkaa yhdessäkään kesken olevassa pelissä.",
        "it": "Non hai un posto in nessuna partita in corso.",
        "es": "No tienes asiento en ninguna partida sin terminar.",
    },
    "My games": {
        "hu": "Játékaim",
        "fi": "Omat pelini",
        "it": "Le mie partite",
        "es": "Mis partidas",
    },
    "turn": {
        "hu": "ki jön",
        "fi": "vuoro",
        "it": "turno",
        "es": "turno",
    },
    "deadline": {
        "hu": "határidő",
        "fi": "määräaika",
        "it": "scadenza",
        "es": "plazo",
    },
    "mode": {
        "hu": "mód",
        "fi": "tila",
        "it": "modalità",
        "es": "modo",
    },
    "turn-based": {
        "hu": "körökre osztott",
        "fi": "vuoropohjainen",
        "it": "a turni",
        "es": "por turnos",
    },
    "live": {
        "hu": "élő",
        "fi": "reaaliaikainen",
        "it": "dal vivo",
        "es": "en vivo",
    },
    "time ran out for {who}: late, the game waits for them": {
        "hu": "lejárt {who} ideje: késésben, a játék vár rá",
        "fi": "aika loppui pelaajalta {who}: myöhässä, peli odottaa",
        "it": "il tempo è scaduto per {who}: in ritardo, la partita aspetta",
        "es": "se le acabó el tiempo a {who}: con retraso, la partida espera",
    },
    "notify: your turn signals   notify email ADDRESS|off   notify webhook URL|off   notify delay 30 (or 2h, 1d)"
        "   notify secret: a new webhook secret   notify push off: no web push": {
        "hu": "notify: a lépésjelzéseid   notify email CÍM|off   notify webhook URL|off"
              "   notify delay 30 (vagy 2h, 1d)   notify secret: új webhook-titok   notify push off: nincs webes push",
        "fi": "notify: vuoroilmoituksesi   notify email OSOITE|off   notify webhook URL|off"
              "   notify delay 30 (tai 2h, 1d)   notify secret: uusi webhook-salaisuus"
              "   notify push off: ei web push -ilmoituksia",
        "it": "notify: i tuoi avvisi di turno   notify email INDIRIZZO|off   notify webhook URL|off"
              "   notify delay 30 (o 2h, 1d)   notify secret: un nuovo segreto del webhook"
              "   notify push off: niente web push",
        "es": "notify: tus avisos de turno   notify email DIRECCIÓN|off   notify webhook URL|off"
              "   notify delay 30 (o 2h, 1d)   notify secret: un secreto nuevo del webhook"
              "   notify push off: sin web push",
    },
    "A delay is 0 to 14 days: minutes (30), or with h or d (2h, 1d).": {
        "hu": "A késleltetés 0 és 14 nap között lehet: percben (30), vagy h-val vagy d-vel (2h, 1d).",
        "fi": "Viive on 0–14 päivää: minuutteina (30) tai h:n tai d:n kanssa (2h, 1d).",
        "it": "Un ritardo va da 0 a 14 giorni: in minuti (30), oppure con h o d (2h, 1d).",
        "es": "Una demora va de 0 a 14 días: en minutos (30), o con h o d (2h, 1d).",
    },
    "{line} is not a notify command: {usage}": {
        "hu": "{line} nem notify parancs: {usage}",
        "fi": "{line} ei ole notify-komento: {usage}",
        "it": "{line} non è un comando notify: {usage}",
        "es": "{line} no es una orden notify: {usage}",
    },
    "off": {
        "hu": "ki",
        "fi": "pois",
        "it": "spento",
        "es": "desactivado",
    },
    "Turn signals": {
        "hu": "Lépésjelzések",
        "fi": "Vuoroilmoitukset",
        "it": "Avvisi di turno",
        "es": "Avisos de turno",
    },
    "e-mail": {
        "hu": "e-mail",
        "fi": "sähköposti",
        "it": "e-mail",
        "es": "correo",
    },
    "webhook": {
        "hu": "webhook",
        "fi": "webhook",
        "it": "webhook",
        "es": "webhook",
    },
    "delay": {
        "hu": "késleltetés",
        "fi": "viive",
        "it": "ritardo",
        "es": "demora",
    },
    "web push": {
        "hu": "webes push",
        "fi": "web push",
        "it": "web push",
        "es": "web push",
    },
    "1 browser": {
        "hu": "1 böngésző",
        "fi": "1 selain",
        "it": "1 browser",
        "es": "1 navegador",
    },
    "{n} browsers": {
        "hu": "{n} böngésző",
        "fi": "{n} selainta",
        "it": "{n} browser",
        "es": "{n} navegadores",
    },
    "webhook secret": {
        "hu": "webhook-titok",
        "fi": "webhook-salaisuus",
        "it": "segreto del webhook",
        "es": "secreto del webhook",
    },
    "Saved: your turn signals.": {
        "hu": "Mentve: a lépésjelzéseid.",
        "fi": "Tallennettu: vuoroilmoituksesi.",
        "it": "Salvati: i tuoi avvisi di turno.",
        "es": "Guardado: tus avisos de turno.",
    },
    "u or undo: take back what you chose this turn": {
        "hu": "u vagy undo: az ebben a körben hozott döntéseid visszavonása",
        "fi": "u tai undo: peru tämän vuoron valintasi",
        "it": "u o undo: ritira le scelte di questo turno",
        "es": "u o undo: retirar lo que elegiste en este turno",
    },
    "There is nothing of this turn to take back now.": {
        "hu": "Ebben a körben most nincs mit visszavonni.",
        "fi": "Tältä vuorolta ei nyt ole mitään peruttavaa.",
        "it": "Ora non c'è niente di questo turno da ritirare.",
        "es": "Ahora no hay nada de este turno que retirar.",
    },
    "Your choices were not taken back ({why}); here is the current view.": {
        "hu": "A döntéseidet nem sikerült visszavonni ({why}); itt a mostani állás.",
        "fi": "Valintojasi ei peruttu ({why}); tässä nykyinen tilanne.",
        "it": "Le tue scelte non sono state ritirate ({why}); ecco la situazione attuale.",
        "es": "No se retiró lo que elegiste ({why}); esta es la situación actual.",
    },
    "You took back what you chose this turn.": {
        "hu": "Visszavontad az ebben a körben hozott döntéseidet.",
        "fi": "Perusit tämän vuoron valintasi.",
        "it": "Hai ritirato le scelte di questo turno.",
        "es": "Retiraste lo que elegiste en este turno.",
    },
    "number: move   n, p: more options   b or F2: the board, all commands   q: quit": {
        "hu": "szám: lépés   n, p: további lehetőségek   b vagy F2: a tábla, minden parancs   q: kilépés",
        "fi": "numero: siirto   n, p: lisää vaihtoehtoja   b tai F2: pelilauta, kaikki komennot   q: lopeta",
        "it": "numero: mossa   n, p: altre opzioni   b o F2: il tabellone, tutti i comandi   q: chiudi",
        "es": "número: jugada   n, p: más opciones   b o F2: el tablero, todas las órdenes   q: terminar",
    },
    "b, F2 or Enter: back to your options   n, p, PgDn, PgUp: turn the pages": {
        "hu": "b, F2 vagy Enter: vissza a lehetőségeidhez   n, p, PgDn, PgUp: lapozás",
        "fi": "b, F2 tai Enter: takaisin vaihtoehtoihisi   n, p, PgDn, PgUp: selaa sivuja",
        "it": "b, F2 o Invio: torna alle tue opzioni   n, p, PgDn, PgUp: sfoglia le pagine",
        "es": "b, F2 o Intro: volver a tus opciones   n, p, PgDn, PgUp: pasar las páginas",
    },
    "Options {first}–{last} of {n}: n or PgDn for more, p or PgUp back": {
        "hu": "{first}–{last}. lehetőség, összesen {n}: n vagy PgDn: további, p vagy PgUp: vissza",
        "fi": "Vaihtoehdot {first}–{last}/{n}: n tai PgDn lisää, p tai PgUp takaisin",
        "it": "Opzioni {first}–{last} di {n}: n o PgDn per altre, p o PgUp per tornare",
        "es": "Opciones {first}–{last} de {n}: n o PgDn para más, p o PgUp para volver",
    },
    "Page {page} of {pages}: PgDn and PgUp turn the pages": {
        "hu": "{page}. oldal, összesen {pages}: PgDn és PgUp: lapozás",
        "fi": "Sivu {page}/{pages}: PgDn ja PgUp selaavat sivuja",
        "it": "Pagina {page} di {pages}: PgDn e PgUp sfogliano le pagine",
        "es": "Página {page} de {pages}: PgDn y PgUp pasan las páginas",
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
