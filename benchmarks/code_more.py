"""code_fresh.py's checks on more corpora of real code, none of it in any other benchmark.

Chosen on 2026-12-04, after the code stage's rules were written, as the unseen code it will be
checked on. Set ``a``: pinned PyPI sdists (Python in sortedcontainers, tomlkit, rich; C in
simplejson, wrapt, pyrsistent, markupsafe, multidict, setproctitle, ciso8601, immutables,
msgpack; C++ in editdistance, pyclipper, murmurhash, python-rapidjson), npm packages (JS in ws,
koa, undici, chalk, nanostores; TS / TSX in react-stately, react-aria-components,
react-spectrum; Java in react-native-webview) and Debian 12 packages (Go, Rust, rapidjson's and
utf8proc's headers). Set ``b``: attrs, cattrs, structlog, typer, httpcore, h11, anyio; Java in
react-native-svg, react-native-maps, netinfo; JS / TS in mitt, p-queue, ioredis, pino,
virtual-core, vue-router, floating-ui; Go (go-github, prometheus client, urfave cli) and Rust
(clap, rayon-core, crossbeam-channel, anyhow) from Debian. Set ``c`` (chosen 2026-12-04,
later): Python in werkzeug, pyparsing, jsonschema, toolz, parso, tabulate, pluggy,
itsdangerous; C in cffi, pycryptodome, zope.interface, ruamel.yaml.clib and the json-c / libuv
headers; C++ in range-v3, tl-expected, tinyxml2 and react-native-reanimated; JS / TS / TSX /
Java in rxjs, react-native-paper, -gesture-handler, -reanimated, -image-picker,
-device-info, handlebars, fastify, async, yargs; Go and Rust from Debian. Set ``d`` (chosen
2026-12-04, last): Python in fastapi, starlette, pydantic 1, celery, jupyterlab-git; C in
psycopg2, uvloop's libuv, xxhash, regex; JS / TS / TSX / Java in react-navigation, -screens,
-safe-area-context, lottie, firebase app, push-notification, -fs, svelte, three, d3-scale,
socket.io, @nestjs/core; Go chi, raft, nats.go, miekg/dns and Rust hyper, rustls, tracing,
mio from Debian; C++ in abseil, flatbuffers, msgpack-c++ and rapidxml. Set ``e`` (chosen
2026-12-04, after set d's fixes): Python in flask, tqdm, bidict, blinker, mako and networkx's
algorithms; C in cbor2 and PyNaCl's libsodium; C++ in xtensor, xsimd, cpp-httplib,
nanoflann, simdjson and Catch2; JS / TS / TSX / Java in ramda, underscore,
superstruct, bottom-sheet, flash-list, vector-icons, linear-gradient, slider, share,
image-crop-picker; Go fsnotify, uniseg, negroni, multierror, validator, bolt and Rust
tokio-util, h2, num-traits, byteorder, slab from Debian. Set ``f`` (chosen 2026-12-04,
after set e's fixes): Python in paramiko, pexpect, urllib3, prompt_toolkit,
typing_extensions; C in lupa's Lua; C++ in sentencepiece and the date, sparsehash, muparser,
tinyobjloader headers; JS / TS / TSX / Java in jquery, moment, @tanstack/table-core and
form-core, @preact/signals-core, tab-view, bottom-tabs, reanimated-carousel, blob-util,
keychain, datetimepicker, sound; Go cast, memberlist, go-diff, pretty, klauspost/compress
and Rust aho-corasick, ryu, itoa, socket2, parking_lot_core, lru from Debian. Set ``g``
(chosen 2026-12-04, after set f's fixes): Python in arrow, jmespath, voluptuous, webob,
pycodestyle, markdown; C in pycares' c-ares, hiredis, zopfli; C++ in fasttext, hnswlib,
react-native-mmkv's MMKV and the PEGTL, TCLAP headers; JS / TS / TSX / Java in luxon, knex,
joi, markdown-it, ajv, react-native-webrtc, picker, fast-image, permissions, render-html,
paper-dates, draggable-flatlist; Go mysql, pq, redigo, goldmark, httprouter and Rust http,
bstr, miniz_oxide, csv, globset, humantime from Debian. Set ``h`` (chosen 2026-12-04, after
set g's fixes): Python in bleach, plumbum, lark, cerberus, glom, pydash; C in h3 and pyreadstat's
ReadStat; C++ in libsass, marisa-trie, react-native-skia's cpp and the toml11, mapbox variant
headers; JS / TS / TSX / Java in mongoose, nodemailer, winston, sequelize, native-base,
react-native-skia, gifted-chat, element-dropdown, navigation, ble-plx, google-signin,
async-storage, vision-camera; Go backoff, go-toml, mergo, xz, glob, msgpack and Rust quick-xml,
bincode, time, uuid, dashmap, unicode-normalization from Debian. Set ``i`` (chosen 2026-12-05,
after set h's fixes): Python in dnspython, soupsieve, beautifulsoup4, deepdiff, icalendar,
jsonpickle, pypika; C in pysam's htslib (and htscodecs) and pygit2; C++ in pyodbc and the
websocketpp, hopscotch-map headers; JS / TS / TSX / Java in pg, postcss, bull, nunjucks,
@noble/curves, signalr, track-player, blueprint, victory-native, stripe-react-native,
collapsible-tab-view, keyboard-controller, date-picker; Go decimal, tcell, gods, goleveldb,
json-iterator, pgx and Rust ignore, encoding_rs, flate2, indicatif, num-bigint from Debian.
Set ``j`` (chosen 2026-12-05, after set i's fixes): Python in sqlglot, cleo, python-statemachine,
pony, lmfit, construct, babel; C in pylibjpeg-openjpeg's OpenJPEG and python-crfsuite's
CRFsuite (and liblbfgs); C++ in jsonnet and the libosmium, gmm headers; JS / TS / TSX / Java in
objection, leaflet, js-yaml, yjs, mocha, @hapi/hapi, chevrotain, @js-temporal/polyfill,
@azure/msal-common, react-complex-tree, wagmi-charts, sortables, moti, react-native-camera; Go
expr, gorm, kong, tview, apd, goquery and Rust pest, tui, rust_decimal, rusqlite, fst,
pulldown-cmark from Debian.
Set ``k`` (chosen 2026-12-05, after set j's fixes): Python in simpy, dramatiq, oauthlib,
mutagen, wtforms, APScheduler, ecdsa; C in apsw, pycurl, pylzma's LZMA SDK, pymunk's Chipmunk2D
and misaka's hoedown; C++ in annoy, react-native-quick-crypto's cpp and the armadillo, oneTBB
headers; JS / TS / TSX / Java in bluebird, less, amqplib, sinon, matter-js, quick-crypto,
glide-data-grid, @uiw/react-md-editor, code-push, react-native-video, expo-av, fbsdk-next,
callkeep, tcp-socket; Go gopher-lua, otto, kafka-go, badger, fasthttp, go-kit and Rust gimli,
tower, ron, euclid, slotmap, rustyline from Debian.
Set ``l`` (chosen 2026-12-05, after set k's fixes): Python in docutils, urwid, kazoo, astroid,
mongoengine, pyasn1; C in pygobject, py-lmdb's LMDB, yappi, uWSGI and the uthash headers; C++
in contourpy, box2d-py's Box2D and the libsigc++, doctest, Crypto++ headers; JS / TS / TSX /
Java in lunr, papaparse, node-forge, jszip, backbone, @tldraw/editor, @refinedev/core,
popover-view, ui-lib, react-native-notifications, contacts, nfc-manager, pdf, voice,
incall-manager, geolocation-service; Go bubbletea, yamux, blackfriday, esbuild, bigcache,
gofeed and Rust async-std, combine, im-rc, similar, flume from Debian.
Set ``m`` (chosen 2026-12-05): Python in feedparser, configobj, asn1crypto, natsort, httplib2,
inflect; C in netifaces, python-ldap, pycairo, dbus-python, mysqlclient, sysv_ipc, zfec, RPi.GPIO,
posix_ipc, pyxattr, crcmod, python-lzo, pyscard, pykerberos, evdev, python-prctl and libev's
header; C++ in nanobind, python-rtmidi, levenshtein and pcg-cpp; JS in pako, mustache,
esprima, hammerjs, sortablejs, howler, stylus, konva; TS / TSX / Java in notifee, purchases,
onesignal, biometrics, inappbrowser-reborn, pager-view, document-picker, restart,
zip-archive, orientation-locker, splash-screen, config, ble-manager, exception-handler, print,
sensors (react-native); Go etree, casbin, ccache, influxql, go-metrics, pion stun and Rust
cssparser, kurbo, xml-rs, vte, arc-swap, crdts from Debian.
Set ``n`` (chosen 2026-12-05, after set m's fixes): Python in GitPython, gitdb, portion,
multipledispatch, isodate, rfc3986, wsproto, paho-mqtt; C in Pillow's libImaging, spidev,
pylibmc, pycrypto, bsdiff4; C++ in uchardet (faust-cchardet), kiwisolver, pyemd and asio's,
capnp's kj and pstreams' headers; JS / TS in cheerio, terser, uglify-js, csso, mysql2, mqtt,
jsdom, tone; TSX / Java in react-native bouncy-checkbox, swiper-flatlist, pagination-dots,
ratings, background-timer, sms, wifi-reborn, immersive, app-auth, contacts-wrapper,
image-resizer, tts, system-setting, send-intent, shake; Go kin-openapi, minio-go, netlink,
go-ristretto, table, go-syslog and Rust crossterm, zvariant, quick-protobuf, plotters,
lyon-path, proptest from Debian.
Set ``o`` (chosen 2026-12-05, after set n's fixes): Python in xmltodict, docopt, tzlocal,
hyperframe, hpack, termcolor, python-slugify, fabric; C in coverage's tracer, httptools (llhttp,
http-parser), crc32c, pyppmd, persistent, BTrees, time-machine, bitstruct, argon2, msgspec and
datrie's libdatrie; C++ in mapbox_earcut, pycld2's CLD2, kenlm and the mdds headers; JS / TS /
TSX / Java in codemirror 5, chart.js, quill, slate, draft-js, xstate, formik, typeorm, graphql
and react-native haptic-feedback, localize, animatable, modal, toast-message, calendars,
get-random-values, randombytes, charts-wrapper, blur, fingerprint-scanner, background-fetch,
android-location-enabler, actions-sheet, chart-kit, html-to-pdf; Go chroma, go-imap, go-spew,
go-difflib, go-runewidth, roaring and Rust nix, object, zip, tar, httparse, cookie from Debian.
Set ``p`` (chosen 2026-12-05, after set o's fixes; Go and Rust drawn at random from the Debian
packages no benchmark used): Python in humanfriendly, colorama, texttable, markdown2, tenacity,
cloudpickle, pycparser, ply, xlrd, idna, netaddr, jsonpatch, jsonpointer, python-dotenv,
wcwidth; C in py-ubjson, pybase64's libbase64, pyinstrument; C++ in the tsl ordered-map, args,
easyloggingpp and cxxtools headers; JS / TS / TSX / Java in superagent, htmlparser2, parse5,
recast, magic-string, dexie, localforage, reselect, normalizr, immutable, class-validator,
class-transformer, inversify, tsyringe, final-form, downshift, react-select, react-window and
react-native keep-awake, audio-recorder-player, qrcode-scanner, swipe-list-view, progress,
snap-carousel; Go go-flags, uritemplates, oklog/run, cascadia, clockwork, go-expect,
go-openapi/jsonpointer, otr3, cilium/ebpf, go-querystring, tidwall/btree and Rust ascii, want,
failure, cpal, simdutf8, cc, subtle, async-broadcast, portable-atomic, assert_cmd, hex, strsim.
Set ``q`` (chosen 2026-12-05, after set p's fixes; Go and Rust drawn at random, another seed):
Python in pyperclip, tinydb, pyee, frozendict, yarl, propcache, aiohttp; C in aiohttp's llhttp,
frozendict and pysha3; JS / TS / Java in lru-cache, idb, lowdb, redux-saga, seamless-immutable,
fastest-validator, react-virtualized, source-map, espree and react-native udp, zeroconf,
sqlite-storage, background-actions, call-detection, iap, music-control, bluetooth-classic,
wifi-p2p, exit-app, immediate-phone-call, android-open-settings, volume-manager, brightness;
Go pion/randutil, go-lz4, go-simple-mail, gocc, natsort, go-cleanhttp, entropy-mnemonics,
demangle, go-dnsstamps, VictoriaMetrics and Rust try_from, cargo, inotify-sys, xmlwriter,
lyon_geom, stringprep, nitrokey-sys, password-hash, gtk-sys, assert-json-diff.
Set ``r`` (chosen 2026-12-06, after set q's fixes; Go and Rust drawn at random, a third seed):
Python in intervaltree, mistune, autopep8, mccabe, rsa, PyJWT, limits, sortedcollections, tomli,
tomli_w, pygtrie, peewee, croniter, tablib, prettytable, loguru, websockets; C in lru-dict,
inflate64, pybcj, PyAudio, scrypt, websockets' speedups, memray's libbacktrace and the jsmn,
libcuckoo-c headers; C++ in memray and the concurrentqueue, cpptoml, flat_hash_map, libcuckoo,
valijson, libnest2d, argh, dbus-cpp headers; JS / TS / Java in mathjs, decimal.js, bignumber.js,
fuse.js, minisearch, idb-keyval, pinia, solid-js, alpinejs, stimulus, htmx, popper, tippy.js,
popmotion, cannon-es, planck, effector, remeda, showdown, prismjs, react-native view-shot,
file-viewer, mail, torch, background-upload, sms-retriever, clipboard, calendar-events,
call-log, google-mobile-ads and cordova-plugin inappbrowser, geolocation, media, device,
network-information; Go pion/rtcp, biogo/store, treeprint, httphead, shenwei356/util,
go-azure-helpers, nebulouslabs/ed25519, orderedmap, go-clocksmith, dataurl and Rust retry,
selectors, waker-fn, locale, valuable-derive, vt100, dissimilar, peeking_take_while,
serde-big-array, libsodium-sys.
Set ``s`` (chosen 2026-12-06, after set r's fixes; Go and Rust drawn at random, a fourth seed):
Python in pathspec, inflection, charset_normalizer, flake8, responses, fastjsonschema,
simpleeval, asteval, portalocker, huey, vine, html5lib, markdownify, ftfy, radon, vulture,
filelock, validators, tldextract; C in billiard, bottleneck, zlib-ng, brotlicffi's brotli,
pyroaring's CRoaring and the cmocka, criterion, libsml, SIMDe headers; C++ in the cppzmq,
pistache, FunctionalPlus, plf::colony, crossguid headers; JS / TS / Java in ofetch, radash,
ts-pattern, rrule, cron-parser, tinycolor2, fflate, crypto-js, tweetnacl, bn.js, elliptic,
@urql/core, valtio, kysely, dompurify, turndown, uplot, animejs, sanitize-html, relay-runtime,
react-native sound-player, blur, in-app-review, encrypted-storage, sensitive-info, otp-verify,
quick-actions, share-menu, device-brightness and cordova-plugin statusbar, vibration, dialogs,
battery-status, media-capture, screen-orientation, file-transfer; Go go-mtree,
go-connections, juju/schema, go-json-rest, atlas-go, bmizerany/assert, yourbasic/graph,
go-bindata-assetfs, gocpio, tideland/golib and Rust prost-derive, x11-clipboard, thin-slice,
futf, lazycell, antidote, byte-slice-cast, dotenv, ttrpc, lexiclean.
Set ``t`` (chosen 2026-12-06, after set s's fixes; Go and Rust drawn at random, a fifth seed):
Python in chardet, pyserial, redis, passlib, pyOpenSSL, diskcache, trio, tornado, alembic,
openpyxl, XlsxWriter, pypdf, jedi, hypothesis, mpmath, kombu, python-socketio, dateparser,
markdown-it-py, typeguard; C in pygame, shapely, pycosat's PicoSAT and the libevent, libcbor,
mosquitto, microhttpd headers; C++ in numexpr, llvmlite's ffi and the backward-cpp,
trompeloeil, taocpp json, fast_float, RESTinio headers; JS / TS / TSX / Java in
@sinclair/typebox, chrono-node, ol, drizzle-orm, mongodb, @noble/hashes, exceljs,
@apollo/client, ra-core, @uiw/react-codemirror, react-native-ui-datepicker, react-native
geolocation, camera-roll, touch-id, signature-capture, bluetooth-escpos-printer, appsflyer and
cordova-plugin advanced-http, local-notification, contacts; Go bytefmt, cview,
go-external-ip, gofork, cssmin, ace, golang-jwt, go-cty-yaml, goji, go-koofrclient and Rust
gio-sys, grep-matcher, proc-macro-error-attr, safemem, protoc-rust, y4m, phf_codegen, opener,
zeroize, liboverdrop.
Set ``u`` (chosen 2026-12-06, after set t's fixes; Go and Rust drawn at random, a sixth seed):
Python in bottle, waitress, cherrypy, uvicorn, sanic, fire, argcomplete, nox, petl, pymysql,
agate, textx, xmlschema, aiofiles, aiosqlite, aiostream, freezegun, pyfakefs, factory_boy, vcrpy;
C in gmpy2, mod_wsgi, guppy3 and the Concurrency Kit, liburcu headers; C++ in gemmi, onnx and the
dtl, vspline, kdtree++, biosoup headers; JS / TS / TSX / Java in fast-xml-parser, peggy, mithril,
@apollo/server, redux-persist, proj4, csv-parse, @visx/shape, @rnmapbox/maps,
@sentry/react-native, @react-native-firebase/messaging, mixpanel-react-native, react-native
drawer-layout, toast-notifications, razorpay, rsa-native and cordova-plugin googlemaps,
ble-central, cordova-sqlite-storage; Go packngo, logrus-logstash-hook, ndp, gluare,
go-openapi/strfmt, gofight, notificator, cupcake/rdb, smallstep/cli, pion/datachannel and Rust
utf8parse, clircle, simplelog, isahc, base-x, ab_glyph_rasterizer, educe, wayland-egl,
servo-fontconfig-sys, pin-project.
Set ``v`` (chosen 2026-12-06, after set u's fixes; Go and Rust drawn at random, a seventh seed):
Python in sqlalchemy, pylint, rdflib, zeep, httpie, invoke, pyyaml, dill, emoji, dacite,
requests-toolbelt, websocket-client, defusedxml, jsonpath-ng, omegaconf, pdfminer.six, python-docx,
textual, watchdog, fsspec and sympy's core; C in pysqlite3, meinheld (and picoev), bjoern,
webrtcvad's WebRTC VAD, ijson's yajl2 backend, oracledb's ODPI-C and the cglm, PipeWire SPA
headers; C++ in boost-histogram (and Boost.Histogram), iminuit's Minuit2 and the xtl, tiny-dnn,
cpp-jwt, ViennaCL headers; JS / TS / TSX / Java in eslint, webpack, micromark, runtypes, rxdb,
mobx-keystone, tailwind-merge, @patternfly/react-table, @react-navigation/elements, native-stack,
@react-native-firebase/firestore and auth, @intercom/intercom-react-native, react-native
wheel-picker-android, alarm-notification, youtube and cordova-plugin calendar, fingerprint-aio,
background-mode; Go errwrap, hedgedhttp, syslogparser, kuberesolver, goaci, perks, redis.v5, jsonc,
btcec, flaggy and Rust gsk4, crossbeam 0.3, libsqlite3-sys, block-modes, postgres-derive,
inventory, bigdecimal, pathdiff, ena, async-process.
Set ``w`` (chosen 2026-12-07, after set v's fixes; Go and Rust drawn at random, an eighth seed):
Python in anytree, asttokens, bitstring, blessed, cmd2, dpkt, json5, ldap3, marko, mistletoe,
parsedatetime, pefile, pika, pyelftools, pyotp, rope, segno, stevedore, strictyaml, treelib; C in
pyeda's boolexpr and espresso, quickjs, mappy's minimap2, pyblake2 and the base16384 header; C++
in DAWG's dawgdic, py-tlsh and the Spectra, TUT, atomic_queue headers; JS / TS / TSX / Java in
expo-image, @marceloterreiro/flash-calendar, react-native-autocomplete-dropdown,
-circular-progress-indicator, @openspacelabs/react-native-zoomable-view,
@lodev09/react-native-true-sheet, react-native-unistyles, dripsy, true-myth, escodegen, esquery,
jsonwebtoken, bcryptjs, rn-fetch-blob, react-native thermal-receipt-printer,
twilio-video-webrtc, jitsi-meet, ffmpeg, @terrylinla/react-native-sketch-canvas and
cordova-plugin-camera-preview, cordova-plugin-email-composer, phonegap-nfc; Go fatih/structs,
jackc/fake, go-nat-pmp, cockroach-go, spdystream, go-datemath, go-cidr, bmizerany/pat,
containers/conmon, gin-contrib/cors and Rust enumn, jemalloc-sys, khronos-egl, concolor-query,
difflib, string, atomic-waker, extprim, vm-superio, pcre2 (and, Rust short of 40 files, the
draw's next eight: easy-ext, semver-parser 0.7, assert_cli, normalize-line-endings, os_str_bytes,
nodrop, libslirp, pamsm).
Set ``x`` (chosen 2026-12-07, after set w's fixes; Go and Rust drawn at random, a ninth seed):
Python in astral, geopy, svgwrite, pydot, textdistance, whoosh, w3lib, stomp.py, dnslib,
python-crontab, fpdf2, colorlog, environs, tinycss2, odfpy, feedgen, chameleon, rq, asciimatics,
yapf; C in pysptk's SPTK, jellyfish 0.9's cjellyfish, TgCrypto, pyminizip's minizip and simpleaudio;
C++ in pyworld's WORLD, pyfarmhash, fastnumbers, pyclustering's ccore and the protozero, SimpleIni,
node-addon-api headers; JS / TS / TSX / Java in highlight.js, clean-css, svgo, @noble/ciphers,
@tanstack/pacer, @milkdown/core, @howljs/calendar-kit, react-native-graph, -star-rating-widget,
@likashefqet/react-native-image-zoom, react-native-qrcode-styled, @10play/tentap-editor,
react-native-avoid-softinput, image-filter-kit, nordic-dfu, vlc-media-player, ssl-pinning,
get-sms-android, keyevent and cordova-plugin-printer, cordova-plugin-globalization,
cordova-plugin-x-socialsharing; Go go-isemoji, sizedwaitgroup, oglematchers, gexpect,
docker-credential-helpers, go-udp-testing, dbus, go-yara, go-hbci, iprange and Rust num-format,
rustc-std-workspace-std, lalrpop-util, freetype-rs, core-graphics, derive_more, slog-async, adler32,
humansize, permutohedron.
Set ``y`` (chosen 2026-12-07, after set x's fixes; Go and Rust drawn at random, a tenth seed):
Python in gpxpy, pystache, mido, polib, skyfield, macholib, bandit, dpath, exifread, num2words,
eventlet, rpyc, Pyro5, scrapy, PyHamcrest, behave, doit, hyperlink, pymodbus, pydub; C in
pyfribidi's FriBidi, soxr's libsoxr, ecos, scs and uamqp's azure-uamqp-c; C++ in nmslib's
similarity_search, pyopenjtalk's MeCab, youtokentome and the foonathan_memory, libsecrecy headers;
JS / TS / TSX / Java in numeral, jsbarcode, natural, mousetrap, @scure/base, @scure/btc-signer,
react-native-redash, cordova-plugin-purchase, react-native-ficus-ui, @tamagui/sheet,
@tamagui/select, @gorhom/portal, react-native-mask-input, react-native-country-codes-picker,
react-native-google-cast, -google-fit, -pjsip, -android-wifi, -hce, -blurhash and
@mauron85/cordova-plugin-background-geolocation, cordova-plugin-crosswalk-webview,
cordova-plugin-bluetooth-serial; Go pbnjay/memory, alexcesaro/log, mdlayher/raw, goid,
go-http-auth, go-sasl, marstr/collection, msgpack.v2, acmez, modernc internal and Rust
rand_xoshiro, async-channel, multihash, oxiri, ref-cast-impl, ansi-to-tui, effective-limits,
num-iter, paste, wildmatch.
Set ``z`` (chosen 2026-12-07, after set y's fixes; Go and Rust drawn at random, an eleventh seed):
Python in jeepney, antlr4-python3-runtime, traitlets, joserfc, executing, pg8000, fakeredis,
olefile, pyphen, supervisor, avro, geographiclib, webcolors, patsy, cron-descriptor,
python-gnupg, yamllint, tifffile, grpclib, unidiff; C in isal's ISA-L, igraph's C core,
pyBigWig's libBigWig, quadprog and pykdtree; C++ in OpenCC, fastcluster, leidenalg and the
libcds, ETL headers; JS / TS / TSX / Java in chance, raphael, xml2js, flexsearch,
@internationalized/date, ethers, react-native-network-logger, -zoom-toolkit, sonner-native,
zeego, react-native-ios-context-menu, -paper-tabs, -awesome-slider, -enriched, -kontaktio,
-jw-media-player, -agora, -persona, -performance, -flipper, reanimated-color-picker,
react-native-paper-dropdown and cordova-plugin-health, cordova-plugin-code-push,
cordova-plugin-music-controls2; Go quic-go, opentracing-contrib/go-grpc, cheggaaa/pb.v1,
masterminds/vcs, moby/sys, pmylund/go-cache, goja, docker/go, sourcemap.v1, go-httpheader and
Rust ntest_test_cases, quote, unwrap, onig, ntest_proc_macro_helper, pkg-config,
rfc822_sanitizer, digest, deunicode, pledge (and, Rust short of 40 files, the draw's next three:
osmesa-sys, scheduled-thread-pool, vm-memory).
Set ``aa`` (chosen 2026-12-07, after set z's fixes; Go and Rust drawn at random, a twelfth seed):
Python in cssselect, python-can, bleak, furl, dictdiffer, hjson, pyaes, pyvisa, nbformat, astor,
hvac, multimethod, mimesis, pdfrw, xlwt, textfsm, ncclient, pydicom, html2text, geojson; C in
pyerfa's ERFA, ephem's libastro, pyswisseph's Swiss Ephemeris, SimSIMD and PyWavelets; C++ in
sgp4, python-sat's encodings, manifold3d, clickhouse-cityhash and pyvoro's voro++; JS / TS /
TSX / Java in cytoscape, sax, micromatch, chokidar, hls.js, @grpc/grpc-js, @msgpack/msgpack,
react-native-sticky-parallax-header, @react-google-maps/api, react-native-hold-menu,
-reorderable-list, -teleport, expo-video, react-native-reanimated-table,
@backpackapp-io/react-native-toast, react-native-photo-editor, jail-monkey,
react-native-simple-crypto, @supersami/rn-foreground-service, react-native-location,
-activity-recognition and cordova-hot-code-push-plugin, cordova-plugin-ionic-webview,
cordova-plugin-secure-storage-echo; Go mcuadros/go-lookup, goburrow/modbus, spf13/fsync,
nebulouslabs/demotemutex, svanharmelen/jsonapi, influxdb1-client, creack/pty, jeffail/gabs,
gir gio-2.0, jaypipes/pcidb and Rust ouroboros_macro, futures-core, crates-io, libsystemd,
alloc-no-stdlib, libc-print, fwdansi, sha-1 0.9, numtoa, rustfix (and, Rust short of 40 files,
the draw's next three: environment, skeptic, criterion-plot).
Set ``ab`` (chosen 2026-12-07, after set aa's fixes; Go and Rust drawn at random, a thirteenth
seed): Python in chess, intelhex, tinytag, pyquery, cssutils, bibtexparser, pyshp, pyusb, Arpeggio,
vobject, pypng, pymap3d, jplephem, python-xlib, jwcrypto, python-pptx, pyftpdlib, pykka, cheroot,
caldav; C in hidapi, pynauty's nauty, html5-parser's gumbo, rpi_ws281x and NOVAS; C++ in metrohash,
MeshPy's TetGen and Triangle wrappers, uharfbuzz's HarfBuzz, pythran's pythonic headers and ripser;
JS / TS / TSX / Java in css-tree, ohm-js, nearley, remarkable, pg-protocol, bson,
@codeherence/react-native-header, react-native-country-select, -screen-transitions,
@portabletext/react-native, @kolking/react-native-avatar, react-native-draggable-grid,
-applovin-max, -secure-key-store, -get-location, -branch, -radar, -text-size, -file-logger,
-screenshot-prevent, -action-sheet, -adjust, -create-thumbnail and cordova-plugin-nativestorage,
cordova-plugin-file-opener2, cordova-plugin-actionsheet; Go go-openapi/spec, google/wire, tmc/scp,
tklauser/go-sysconf, guestfs, docker/libkv, sourcegraph/jsonrpc2, gabriel-vasile/mimetype,
tchap/go-patricia, cryptix/wav and Rust foreign-types-shared 0.1, sval_derive, webpki,
stable_deref_trait, env_logger, tree-sitter, digest 0.9, constant_time_eq, enum-map-derive, glib.
Set ``ac`` (chosen 2026-12-07, after set ab's fixes; Go and Rust drawn at random, a fourteenth
seed): Python in graphviz, filetype, PySocks, semantic_version, aenum, ordered-set, coloredlogs,
bracex, graphene, isoduration, uri-template, pandocfilters, smmap, execnet, distlib, keyring,
mashumaro, CacheControl, stack_data, SecretStorage; C in pymongo's bson, numba, ssh2-python's
libssh2, ssh-python's libssh and dtaidistance; C++ in thrift's extension, ml_dtypes, matplotlib,
scikit-learn's libsvm and liblinear and LightGBM; JS / TS / TSX / Java in iconv-lite,
enhanced-resolve, whatwg-url, doctrine, @jridgewell/trace-mapping, domutils,
@quidone/react-native-wheel-picker, react-native-marked, -notifier, -reanimated-skeleton, -css,
-fast-confetti, -flex-grid, @wuba/react-native-echarts, react-native-a11y-order,
-external-keyboard, -pdf-renderer, -ux-cam, @adobe/react-native-aepcore, react-native-mmkv-storage,
-background-geolocation, -spinkit, -securerandom, -add-calendar-event, -aes-crypto, -sha256 and
cordova-plugin-bluetoothle, cordova-plugin-badge, cordova-plugin-x-toast; Go
charmbracelet/lipgloss, sasha-s/go-deadlock, virtuald/go-ordered-json, golang.org/x/net,
src-d/gcfg, networkplumbing/go-nft, go-errors/errors, gogo/status, yuin/goldmark-emoji,
go-openapi/inflect and Rust aliasable, size_format, boxfnonce, concolor, rustls-pemfile,
asn1_derive, bzip2, gdk4-x11, linkify, matches (and, Rust short of 40 files, the draw's next
one: rtnetlink).
Set ``ad`` (chosen 2026-12-07, after set ac's fixes; Go and Rust drawn at random, a fifteenth
seed): Python in sly, parsy, pyhocon, ConfigArgParse, python-box, munch, dogpile.cache, aniso8601,
ics, parsel, TatSu, cachelib, schematics, colander, trafaret, jsonmerge, dataclasses-json, Automat,
PyDispatcher, convertdate; C in yara-python's libyara modules, distorm3, python-lzf, pyEDFlib's
EDFlib, pyreadr's librdata, sep, numcodecs' c-blosc, pyfastx, pyjess' Jess, pyrodigal's Prodigal
and bitshuffle; C++ in python-tlsh, jsonslicer, glcontext, moderngl, edlib, mgrs' GEOTRANS and
PyGLM's functions; JS / TS / TSX / Java in chroma-js, ejs, avsc, kefir, busboy, ml-matrix,
@kingstinct/react-native-healthkit, react-native-image-marker, react-native-magnus,
-ios-utilities, -spotlight-tour, -notificated, -currency-input, -progress-steps, -paper-select,
-gesture-image-viewer, @expensify/react-native-live-markdown, react-native-esc-pos-printer,
-receive-sharing-intent, -usb-serialport-for-android, -http-bridge, -static-server,
-startup-time, -color-matrix-image-filters, -context-menu-view, -key-command, -sound-level,
-screen-brightness, -default-preference and cordova-plugin-nativeaudio, cordova-plugin-audioinput,
cordova-plugin-nativegeocoder; Go expediadotcom/haystack-client-go, gir gobject-2.0,
nebulouslabs/errors, zyedidia/clipboard, anacrolix/tagflag, daaku/go.zipexe, git-lfs,
adam-lavrik/go-imath, aryann/difflib, pault.ag/go/config and Rust os_pipe, winit, lazy-regex,
ntapi, resolv-conf, hashlink, tera, simplecss, oauth2, memoffset.
Set ``ae`` (chosen 2026-12-07, after set ad's fixes; Go and Rust drawn at random, a sixteenth seed):
Python in sh, pybtex, Genshi, kafka-python, eliot, funcparserlib, rply, asn1tools, dicttoxml,
chevron, Logbook, pymemcache, python-memcached, neo4j, josepy, pyinotify, pyudev, pyxdg, WebTest,
RestrictedPython; C in aubio, PyInstaller's bootloader, xmlsec, Mercurial's C (cext, bdiff, mpatch,
xdiff) and confluent-kafka; C++ in PyICU, pyfamsa's FAMSA, pytrimal's trimAl, POT's network simplex
and pyspoa's spoa; JS / TS / TSX / Java in mnemonist, parsimmon, gl-matrix, simple-statistics,
lokijs, nedb, react-native-audio-api, @sendbird/uikit-react-native-foundation, expo-blur,
expo-camera, expo-checkbox, react-native-bottom-tabs, @react-native-assets/slider,
react-native-awesome-gallery, -qr-svg, -uitextview, @futurejj/react-native-visibility-sensor,
@rudderstack/rudder-sdk-react-native, clevertap-react-native, @adobe/react-native-aepedge,
@iterable/react-native-sdk, newrelic-react-native-agent, singular-react-native,
react-native-shared-preferences, -network-info, -dialogs and cordova-plugin-telerik-imagepicker,
cordova-plugin-android-fingerprint-auth, cordova-plugin-wifiwizard2; Go shurcool/graphql,
smallstep/truststore, sanity-io/litter, gorp.v1, quotedprintable.v3, grpc-gateway, coreos/pkg,
eiannone/keyboard, docker/go-metrics, gin-jwt and Rust os_display, protobuf, ipnetwork, shadow-rs,
scale-info-derive, wasm-bindgen-macro-support, ghost, gobject-sys, snafu, getset.
Same draw, prompt kinds, columns and JSON as code_fresh.py.

    .venv/bin/python benchmarks/code_more.py [--set b|...|ae] --fetch  # once: pip, npm, apt
    .venv/bin/python benchmarks/code_more.py [--set b|...|ae] [--per-lang 40] [--langs go,rust]
"""

from __future__ import annotations

import argparse
import re
import sys

import code_fresh as fresh  # (this folder is the script's path)

from ctxpress.tokens import user_cache_dir

INC = fresh.INCLUDE
# (set a: the Python of the packages drawn first, the C packages' scripts would change the draw)
_PY_A = "sortedcontainers tomlkit rich simplejson wrapt pyrsistent editdistance pyclipper"
_C_A = "simplejson wrapt pyrsistent MarkupSafe multidict setproctitle ciso8601 immutables msgpack"
_PY_C = "werkzeug pyparsing jsonschema toolz parso tabulate pluggy itsdangerous"
_C_C = "cffi pycryptodome zope.interface ruamel.yaml.clib"
_PY_D = "fastapi starlette pydantic celery jupyterlab_git"
_PY_E = "flask tqdm bidict blinker Mako"
_PY_F = "paramiko pexpect urllib3 prompt_toolkit typing_extensions"
_PY_G = "arrow jmespath voluptuous webob pycodestyle markdown"
_PY_H = "bleach plumbum lark Cerberus glom pydash"
_PY_I = "dnspython soupsieve beautifulsoup4 deepdiff icalendar jsonpickle PyPika"
_PY_J = "sqlglot cleo python_statemachine pony lmfit construct babel"
_PY_K = "simpy dramatiq oauthlib mutagen wtforms APScheduler ecdsa"
_PY_L = "docutils urwid kazoo astroid mongoengine pyasn1"
_PY_M = "feedparser configobj asn1crypto natsort httplib2 inflect"
_PY_N = "GitPython gitdb portion multipledispatch isodate rfc3986 wsproto paho_mqtt"
_PY_O = "xmltodict docopt tzlocal hyperframe hpack termcolor python_slugify fabric"
_PY_Q = "pyperclip tinydb pyee frozendict yarl propcache aiohttp"
_PY_R = (
    "intervaltree mistune autopep8 mccabe rsa PyJWT limits sortedcollections tomli tomli_w"
    " pygtrie peewee croniter tablib prettytable loguru websockets"
)
_PY_S = (
    "pathspec inflection charset_normalizer flake8 responses fastjsonschema simpleeval asteval"
    " portalocker huey vine html5lib markdownify ftfy radon vulture filelock validators"
    " tldextract"
)
_PY_T = (
    "chardet pyserial redis passlib pyopenssl diskcache trio tornado alembic openpyxl xlsxwriter"
    " pypdf jedi hypothesis mpmath kombu python_socketio dateparser markdown_it_py typeguard"
)
# (set t: the folders of taocpp json and RESTinio that are theirs, not the PEGTL, itoa,
# expected-lite, ... they bundle)
_TAO_JSON = ("binding", "cbor", "contrib", "events", "internal", "jaxn", "msgpack", "ubjson")
_RESTINIO = ("helpers", "impl", "path2regex", "router", "so5", "sync_chain", "transforms")
_RESTINIO += ("utils", "websocket")
_PY_U = (
    "bottle waitress cherrypy uvicorn sanic fire argcomplete nox petl pymysql agate textx"
    " xmlschema aiofiles aiosqlite aiostream freezegun pyfakefs factory_boy vcrpy"
)
_PY_V = (
    "sqlalchemy pylint rdflib zeep httpie invoke pyyaml dill emoji dacite requests-toolbelt"
    " websocket_client defusedxml jsonpath_ng omegaconf pdfminer_six python_docx textual"
    " watchdog fsspec"
)
# (set v: ViennaCL's host code, not its CUDA and OpenCL kernels)
_VIENNACL = ("", "linalg/", "linalg/host_based/", "linalg/detail/**/", "scheduler/", "tools/")
_VIENNACL += ("meta/", "misc/", "traits/", "detail/**/", "device_specific/**/", "io/")
_PY_W = (
    "anytree asttokens bitstring blessed cmd2 dpkt json5 ldap3 marko mistletoe parsedatetime"
    " pefile pika pyelftools pyotp rope segno stevedore strictyaml treelib"
)
# (set x: pyclustering's C++ core, its clustering and containers)
_CCORE = ("cluster", "container")
_PY_X = (
    "astral geopy svgwrite pydot textdistance Whoosh w3lib stomp_py dnslib python_crontab fpdf2"
    " colorlog environs tinycss2 odfpy feedgen Chameleon rq asciimatics yapf"
)
_PY_Y = (
    "gpxpy pystache mido polib skyfield macholib bandit dpath exifread num2words eventlet rpyc"
    " pyro5 scrapy pyhamcrest behave doit hyperlink pymodbus pydub"
)
# (set y: uamqp's AMQP library and the Azure C utilities it bundles, not their tests' mocks)
_UAMQP = "pypi/uamqp*/src/vendor/azure-uamqp-c"
_PY_Z = (
    "jeepney antlr4_python3_runtime traitlets joserfc executing pg8000 fakeredis olefile pyphen"
    " supervisor avro geographiclib webcolors patsy cron_descriptor python_gnupg yamllint"
    " tifffile grpclib unidiff"
)
# (set z: ISA-L's portable C, not its aarch64 / ppc64le / riscv64 ports; igraph's C core, not
# the GLPK, LAPACK, qhull, ... it bundles, nor its C++ parts and generated parsers)
_ISAL = "pypi/isal*/src/isal/isa-l"
_IGRAPH = "pypi/igraph*/vendor/source/igraph"
# (set aa: pyswisseph's Swiss Ephemeris and its helpers, not the SQLite they bundle nor the
# Swiss Ephemeris tests; ephem's libastro, not the dtoa.c it bundles nor its planet tables;
# manifold3d, clickhouse-cityhash and pyvoro without their Cython-generated C++)
_PY_AA = (
    "cssselect python_can bleak furl dictdiffer hjson pyaes pyvisa nbformat astor hvac"
    " multimethod mimesis pdfrw xlwt textfsm ncclient pydicom html2text geojson"
)
# (set ab: hidapi's C, not its Cython-generated hid.c; rpi_ws281x's lib, not its SWIG wrapper;
# metrohash, uharfbuzz and ripser without their Cython-generated C++; pythran's pythonic
# headers, not the Boost and xsimd copies it bundles)
_PY_AB = (
    "chess intelhex tinytag pyquery cssutils bibtexparser pyshp pyusb Arpeggio vobject pypng"
    " pymap3d jplephem python-xlib jwcrypto python_pptx pyftpdlib pykka cheroot caldav"
)
# (set ac: libssh2's and libssh's C, not ssh2-python's and ssh-python's Cython-generated C, nor
# their tests and examples; dtaidistance's C library, not its Cython-generated C; numba's C, not
# the CUDA headers it bundles; ml_dtypes, matplotlib and LightGBM without the Eigen, AGG,
# Boost.Compute and fmt copies they bundle, LightGBM without its CUDA sources)
_PY_AC = (
    "graphviz filetype PySocks semantic_version aenum ordered_set coloredlogs bracex graphene"
    " isoduration uri_template pandocfilters smmap execnet distlib keyring mashumaro cachecontrol"
    " stack_data secretstorage"
)
# (set ad: libyara's modules, not yara's CLI, tests and core; PyGLM's function wrappers, not the
# glm headers it bundles nor its type wrappers; mgrs' GEOTRANS C++; pyreadr's librdata without the
# bzip2, lzma, zlib and iconv headers it bundles; numcodecs' c-blosc and bitshuffle without the
# lz4, lzf, zlib and zstd copies they bundle, nor c-blosc's tests and examples; the Prodigal and
# Jess that pyrodigal and pyjess vendor, and pyrodigal's own headers)
_PY_AD = (
    "sly parsy pyhocon configargparse python_box munch dogpile_cache aniso8601 ics parsel tatsu"
    " cachelib schematics colander trafaret jsonmerge dataclasses_json automat PyDispatcher"
    " convertdate"
)
# (set ae: aubio's library and Python extension, not its tests and examples; Mercurial's C, not
# the python-zstandard it bundles, its contrib and sha1dc; FAMSA's own C++, not the zlib-ng,
# isa-l, mimalloc and libdeflate it bundles; trimAl without cpu_features and its tests; POT's
# network simplex, not its Cython-generated emd_wrap.cpp nor the Eigen it bundles)
_PY_AE = (
    "sh pybtex genshi kafka_python eliot funcparserlib rply asn1tools dicttoxml chevron logbook"
    " pymemcache python-memcached neo4j josepy pyinotify pyudev pyxdg webtest restrictedpython"
)
_PY_P = (
    "humanfriendly colorama texttable markdown2 tenacity cloudpickle pycparser ply xlrd idna"
    " netaddr jsonpatch jsonpointer python_dotenv wcwidth"
)
SETS = {
    "a": {
        "PYPI": "sortedcontainers-2.4.0 tomlkit-0.13.2 rich-13.9.4 simplejson-3.19.3 wrapt-1.16.0"
        " pyrsistent-0.20.0 MarkupSafe-2.1.5 multidict-6.0.5 setproctitle-1.3.3 ciso8601-2.3.1"
        " immutables-0.20 msgpack-1.0.8 editdistance-0.8.1"
        " pyclipper-1.3.0.post5 murmurhash-1.0.10 python-rapidjson-1.17",
        "NPM_PKGS": "ws@8.18.0 koa@2.15.3 undici@6.20.0 chalk@5.3.0 nanostores@0.11.3"
        " @react-stately/data@3.11.7 react-aria-components@1.4.0 @react-spectrum/picker@3.15.3"
        " @react-spectrum/menu@3.20.2 react-native-webview@13.12.2",
        "DEBS": "golang-github-fatih-color-dev=1.7.0-1 golang-github-spf13-viper-dev=1.10.1-1"
        " golang-github-jmoiron-sqlx-dev=1.3.5-1 golang-github-olekukonko-tablewriter-dev=0.0.5-2"
        " librust-once-cell-dev=1.17.0-1 librust-bitflags-dev=1.3.2-3 librust-serde-dev=1.0.152-2"
        " librust-futures-util-dev=0.3.21-1 librust-regex-dev=1.7.1-1"
        " rapidjson-dev=1.1.0+dfsg2-7.1 libutf8proc-dev=2.8.0-1",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_A.split()],
        "C_GLOBS": [f"pypi/{p}*/**/*.[ch]" for p in _C_A.split()] + [f"{INC}/utf8proc.h"],
        "CPP_GLOBS": [f"{INC}/rapidjson/**/*.h", "pypi/python*rapidjson*/*.cpp"]
        + [f"pypi/{p}*/**/*.[ch]pp" for p in ("editdistance", "pyclipper", "murmurhash")],
    },
    "b": {
        "PYPI": "attrs-23.2.0 cattrs-23.2.3 structlog-24.1.0 typer-0.12.3 httpcore-1.0.5"
        " h11-0.14.0 anyio-4.4.0",
        "NPM_PKGS": "react-native-svg@15.3.0 react-native-maps@1.15.6"
        " @react-native-community/netinfo@11.3.2 mitt@3.0.1 p-queue@8.0.1 ioredis@5.4.1"
        " pino@9.2.0 @tanstack/virtual-core@3.8.1 vue-router@4.4.0 @floating-ui/core@1.6.4",
        "DEBS": "golang-github-google-go-github-dev=48.1.0-2"
        " golang-github-prometheus-client-golang-dev=1.14.0-3"
        " golang-github-urfave-cli-v2-dev=2.3.0-2 librust-clap-dev=4.0.32-1"
        " librust-rayon-core-dev=1.10.1-1 librust-crossbeam-channel-dev=0.5.6-1"
        " librust-anyhow-dev=1.0.69-1",
        "PY_GLOBS": ["pypi/**/*.py"],
    },
    "c": {
        "PYPI": "werkzeug-3.0.4 pyparsing-3.1.4 jsonschema-4.23.0 toolz-0.12.1 parso-0.8.4"
        " tabulate-0.9.0 pluggy-1.5.0 itsdangerous-2.2.0 cffi-1.17.1 pycryptodome-3.21.0"
        " zope.interface-7.1.1 ruamel.yaml.clib-0.2.12",
        "NPM_PKGS": "rxjs@7.8.1 react-native-paper@5.12.5 react-native-gesture-handler@2.20.2"
        " react-native-reanimated@3.16.1 react-native-image-picker@7.1.2"
        " react-native-device-info@14.0.1 async@3.2.6 handlebars@4.7.8 fastify@4.28.1"
        " yargs@17.7.2",
        "DEBS": "golang-github-mitchellh-mapstructure-dev=1.5.0-2"
        " golang-github-patrickmn-go-cache-dev=2.1.0-1.1 golang-github-spf13-afero-dev=1.9.3-1"
        " golang-github-robfig-cron-dev=3.0.1-1 golang-github-tidwall-gjson-dev=1.14.4-2"
        " librust-petgraph-dev=0.6.2-1 librust-arrayvec-dev=0.7.2-2 librust-walkdir-dev=2.3.2-1"
        " librust-tinyvec-dev=1.6.0-2 librust-unicode-segmentation-dev=1.9.0-1"
        " librange-v3-dev=0.12.0-1 libexpected-dev=1.0.0~dfsg-3 libtinyxml2-dev=9.0.0+dfsg-3.1"
        " libjson-c-dev=0.16-2 libuv1-dev=1.44.2-1+deb12u1",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_C.split()],
        "C_GLOBS": [f"pypi/{p}*/**/*.[ch]" for p in _C_C.split()]
        + [f"{INC}/json-c/*.h", f"{INC}/uv.h", f"{INC}/uv/*.h"],
        "CPP_GLOBS": [
            f"{INC}/range/**/*.hpp",
            f"{INC}/tl/*.hpp",
            f"{INC}/tinyxml2.h",
            "npm/react-native-reanimated*/package/Common/cpp/**/*.[ch]*",
        ],
    },
    "d": {
        "PYPI": "fastapi-0.115.0 starlette-0.38.6 pydantic-1.10.18 celery-5.4.0"
        " jupyterlab_git-0.50.1 psycopg2-2.9.9 uvloop-0.20.0 xxhash-3.5.0 regex-2024.9.11",
        "NPM_PKGS": "@react-navigation/native@6.1.18 @react-navigation/stack@6.4.1"
        " @react-navigation/drawer@6.7.2 react-native-screens@3.34.0"
        " react-native-safe-area-context@4.11.0 lottie-react-native@7.0.0 svelte@4.2.19"
        " three@0.169.0 d3-scale@4.0.2 socket.io@4.8.0 @nestjs/core@10.4.4"
        " @react-native-firebase/app@21.0.0 react-native-push-notification@8.1.1"
        " react-native-fs@2.20.0",
        "DEBS": "golang-github-go-chi-chi-dev=5.0.7-1 golang-github-hashicorp-raft-dev=1.1.2-1"
        " golang-github-nats-io-go-nats-dev=1.22.1-1 golang-github-miekg-dns-dev=1.1.50-2"
        " librust-hyper-dev=0.14.19-1 librust-rustls-dev=0.20.8-4 librust-tracing-dev=0.1.37-1"
        " librust-mio-dev=0.8.4-1 libflatbuffers-dev=2.0.8+dfsg1-2"
        " libabsl-dev=20220623.1-1+deb12u2 libmsgpack-cxx-dev=4.1.3-1 librapidxml-dev=1.13-3",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_D.split()],
        "C_GLOBS": [
            "pypi/psycopg2*/psycopg/*.[ch]",
            "pypi/uvloop*/vendor/libuv/src/**/*.[ch]",
            "pypi/xxhash*/deps/**/*.[ch]",
            "pypi/regex*/regex_3/*.[ch]",
        ],
        "CPP_GLOBS": [
            f"{INC}/absl/**/*.h",
            f"{INC}/flatbuffers/*.h",
            f"{INC}/msgpack/v1/**/*.hpp",
            f"{INC}/rapidxml/*.hpp",
            "npm/react-native-screens*/package/cpp/**/*.[ch]*",
            "npm/lottie-react-native*/package/**/*.[ch]pp",
        ],
    },
    "e": {
        "PYPI": "flask-3.0.3 tqdm-4.66.5 bidict-0.23.1 blinker-1.8.2 mako-1.3.5 networkx-3.3"
        " cbor2-5.6.4 PyNaCl-1.5.0",
        "NPM_PKGS": "ramda@0.30.1 underscore@1.13.7 superstruct@2.0.2 @gorhom/bottom-sheet@4.6.4"
        " @shopify/flash-list@1.7.1 react-native-vector-icons@10.2.0"
        " react-native-linear-gradient@2.8.3 @react-native-community/slider@4.5.2"
        " react-native-share@10.2.1 react-native-image-crop-picker@0.41.2",
        "DEBS": "golang-github-fsnotify-fsnotify-dev=1.6.0-2 golang-github-rivo-uniseg-dev=0.4.2-1"
        " golang-github-urfave-negroni-dev=0.2.0-3"
        " golang-github-hashicorp-go-multierror-dev=1.1.1-2"
        " golang-github-go-playground-validator-v10-dev=10.4.1-4"
        " golang-github-boltdb-bolt-dev=1.3.1-7 librust-tokio-util-dev=0.7.3-2"
        " librust-h2-dev=0.3.13-2 librust-num-traits-dev=0.2.15-1 librust-byteorder-dev=1.4.3-2"
        " librust-slab-dev=0.4.4-1+b1 libxtensor-dev=0.24.3-1 libxsimd-dev=8.1.0-7"
        " libcpp-httplib-dev=0.11.4+ds-1+deb12u1 libnanoflann-dev=1.4.3+ds-2"
        " libsimdjson-dev=3.0.1-1 catch2=2.13.10-1",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_E.split()]
        + ["pypi/networkx*/networkx/algorithms/*.py"],
        "C_GLOBS": ["pypi/cbor2*/source/*.[ch]", "pypi/PyNaCl*/src/libsodium/**/*.[ch]"],
        "CPP_GLOBS": [
            f"{INC}/xtensor/*.hpp",
            f"{INC}/xsimd/**/*.hpp",
            f"{INC}/httplib.h",
            f"{INC}/nanoflann.hpp",
            f"{INC}/simdjson*.h",
            f"{INC}/catch2/*.hpp",
        ],
    },
    "f": {
        "PYPI": "paramiko-3.4.1 pexpect-4.9.0 urllib3-2.2.3 prompt_toolkit-3.0.47"
        " typing_extensions-4.12.2 lupa-2.2 sentencepiece-0.2.0",
        "NPM_PKGS": "jquery@3.7.1 moment@2.30.1 @tanstack/table-core@8.20.5"
        " @tanstack/form-core@0.33.0 @preact/signals-core@1.8.0 react-native-tab-view@3.5.2"
        " @react-navigation/bottom-tabs@6.6.1 react-native-reanimated-carousel@3.5.1"
        " react-native-blob-util@0.19.11 react-native-keychain@8.2.0"
        " @react-native-community/datetimepicker@8.2.0 react-native-sound@0.11.2",
        "DEBS": "golang-github-spf13-cast-dev=1.5.0-2"
        " golang-github-hashicorp-memberlist-dev=0.2.2-2 golang-github-sergi-go-diff-dev=1.2.0-2"
        " golang-github-kr-pretty-dev=0.3.0-1"
        " golang-github-klauspost-compress-dev=1.15.12+ds1-3 librust-aho-corasick-dev=0.7.19-1"
        " librust-ryu-dev=1.0.2-1 librust-itoa-dev=1.0.1-2 librust-socket2-dev=0.4.4-1"
        " librust-parking-lot-core-dev=0.9.3-1 librust-lru-dev=0.7.8-1+b1"
        " libhowardhinnant-date-dev=3.0.1+ds-5 libsparsehash-dev=2.0.3-2"
        " libmuparser-dev=2.3.3-0.1 libtinyobjloader-dev=2.0.0~rc10+dfsg-2+b1",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_F.split()],
        "C_GLOBS": ["pypi/lupa*/third-party/**/*.[ch]"],
        "CPP_GLOBS": [
            "pypi/sentencepiece*/**/*.cc",
            "pypi/sentencepiece*/**/*.h",
            f"{INC}/date/*.h",
            f"{INC}/sparsehash/*_*",
            f"{INC}/sparsehash/internal/*.h",
            f"{INC}/muParser*.h",
            f"{INC}/tiny_obj_loader.h",
        ],
    },
    "g": {
        "PYPI": "arrow-1.3.0 jmespath-1.0.1 voluptuous-0.14.2 webob-1.8.8 pycodestyle-2.12.1"
        " markdown-3.7 pycares-4.4.0 hiredis-3.0.0 zopfli-0.2.3 fasttext-0.9.3 hnswlib-0.8.0",
        "NPM_PKGS": "luxon@3.5.0 knex@3.1.0 joi@17.13.3 markdown-it@14.1.0 ajv@8.17.1"
        " react-native-webrtc@124.0.4 @react-native-picker/picker@2.8.1"
        " react-native-fast-image@8.6.3 react-native-permissions@4.1.5 react-native-mmkv@2.12.2"
        " react-native-render-html@6.3.4 react-native-paper-dates@0.22.24"
        " react-native-draggable-flatlist@4.0.1",
        "DEBS": "golang-github-go-sql-driver-mysql-dev=1.5.0-2 golang-github-lib-pq-dev=1.10.7-2"
        " golang-github-gomodule-redigo-dev=1:1.8.3-1 golang-github-yuin-goldmark-dev=1.5.4-1"
        " golang-github-julienschmidt-httprouter-dev=1.3.0-2 librust-http-dev=0.2.7-1"
        " librust-bstr-dev=0.2.17-1+b1 librust-miniz-oxide-dev=0.6.2-1 librust-csv-dev=1.1.6-1"
        " librust-globset-dev=0.4.9-1 librust-humantime-dev=2.1.0-1+b1 tao-pegtl-dev=3.2.7-1"
        " libtclap-dev=1.2.5-1+b1",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_G.split()],
        "C_GLOBS": [
            "pypi/pycares*/deps/c-ares/src/**/*.[ch]",
            "pypi/pycares*/deps/c-ares/include/*.h",
            "pypi/hiredis*/vendor/hiredis/*.[ch]",
            "pypi/hiredis*/src/*.[ch]",
            "pypi/zopfli*/zopfli/src/zopfli/*.[ch]",
        ],
        "CPP_GLOBS": [
            "pypi/fasttext*/src/*.cc",
            "pypi/fasttext*/src/*.h",
            "pypi/hnswlib*/hnswlib/*.h",
            "pypi/hnswlib*/python_bindings/*.cpp",
            "npm/react-native-mmkv*/package/**/*.[ch]pp",
            "npm/react-native-mmkv*/package/**/*.h",
            f"{INC}/tao/pegtl/*.hpp",
            f"{INC}/tao/pegtl/contrib/*.hpp",
            f"{INC}/tclap/*.h",
        ],
    },
    "h": {
        "PYPI": "bleach-6.1.0 plumbum-1.8.3 lark-1.2.2 Cerberus-1.3.5 glom-23.5.0 pydash-8.0.3"
        " h3-3.7.7 pyreadstat-1.2.7 libsass-0.23.0 marisa_trie-1.2.0",
        "NPM_PKGS": "mongoose@8.6.3 nodemailer@6.9.15 winston@3.14.2 sequelize@6.37.3"
        " native-base@3.4.28 @shopify/react-native-skia@1.4.2 react-native-gifted-chat@2.6.3"
        " react-native-element-dropdown@2.12.1 react-native-navigation@7.40.1"
        " react-native-ble-plx@3.2.1 @react-native-google-signin/google-signin@12.2.1"
        " @react-native-async-storage/async-storage@1.24.0 react-native-vision-camera@4.5.3",
        "DEBS": "golang-github-cenkalti-backoff-dev=4.1.3-1"
        " golang-github-pelletier-go-toml-dev=1.9.4-1 golang-github-imdario-mergo-dev=0.3.12-1"
        " golang-github-ulikunitz-xz-dev=0.5.6-2"
        " golang-github-gobwas-glob-dev=0.2.3+git20180208.19c076c-2"
        " golang-github-vmihailenco-msgpack.v5-dev=5.3.5-2 librust-quick-xml-dev=0.26.0-3"
        " librust-bincode-dev=1.3.3-1 librust-time-dev=0.3.9-1+deb12u1 librust-uuid-dev=1.2.1-1"
        " librust-dashmap-dev=5.4.0-1 librust-unicode-normalization-dev=0.1.22-1"
        " libtoml11-dev=3.7.1-3 libmapbox-variant-dev=1.2.0-2",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_H.split()],
        "C_GLOBS": ["pypi/h3*/src/h3lib/src/**/*.[ch]", "pypi/pyreadstat*/src/**/*.[ch]"],
        "CPP_GLOBS": [
            "pypi/libsass*/libsass/src/**/*.[ch]pp",
            "pypi/libsass*/libsass/src/**/*.h",
            "pypi/marisa_trie*/marisa-trie/**/*.cc",
            "pypi/marisa_trie*/marisa-trie/**/*.h",
            "npm/shopify-react-native-skia*/package/cpp/rnskia/**/*.[ch]*",
            "npm/shopify-react-native-skia*/package/cpp/jsi/**/*.[ch]*",
            f"{INC}/toml/*.hpp",
            f"{INC}/mapbox/*.hpp",
        ],
    },
    "i": {
        "PYPI": "dnspython-2.7.0 soupsieve-2.6 beautifulsoup4-4.12.3 deepdiff-8.0.1"
        " icalendar-6.0.1 jsonpickle-3.3.0 PyPika-0.48.9 pysam-0.22.1 pygit2-1.16.0"
        " pyodbc-5.2.0",
        "NPM_PKGS": "pg@8.13.0 postcss@8.4.47 bull@4.16.3 nunjucks@3.2.4 @noble/curves@1.6.0"
        " @microsoft/signalr@8.0.7 react-native-track-player@4.1.1 @blueprintjs/core@5.13.0"
        " victory-native@41.4.0 @stripe/stripe-react-native@0.39.0"
        " react-native-collapsible-tab-view@7.0.1 react-native-keyboard-controller@1.14.0"
        " react-native-date-picker@5.0.7",
        "DEBS": "golang-github-shopspring-decimal-dev=1.2.0-2"
        " golang-github-gdamore-tcell.v2-dev=2.5.4-1 golang-github-emirpasic-gods-dev=1.12.0-2"
        " golang-github-syndtr-goleveldb-dev=0.0~git20200815.5c35d60-1"
        " golang-github-json-iterator-go-dev=1.1.12-1 golang-github-jackc-pgx-v4-dev=4.15.0-4"
        " librust-ignore-dev=0.4.18-2+b1 librust-encoding-rs-dev=0.8.31-2"
        " librust-flate2-dev=1.0.25-1 librust-indicatif-dev=0.17.3-2"
        " librust-num-bigint-dev=0.4.3-2 libwebsocketpp-dev=0.8.2-4"
        " libtsl-hopscotch-map-dev=2.3.0-3",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_I.split()],
        "C_GLOBS": [
            "pypi/pysam*/htslib/*.[ch]",
            "pypi/pysam*/htslib/htslib/*.h",
            "pypi/pysam*/htslib/cram/*.[ch]",
            "pypi/pysam*/htslib/htscodecs/htscodecs/*.[ch]",
            "pypi/pygit2*/src/*.[ch]",
        ],
        "CPP_GLOBS": [
            "pypi/pyodbc*/src/*.cpp",
            "pypi/pyodbc*/src/*.h",
            f"{INC}/websocketpp/**/*.hpp",
            f"{INC}/tsl/*.h",
        ],
    },
    "j": {
        "PYPI": "sqlglot-30.31.0 cleo-2.1.0 python_statemachine-3.2.2 pony-0.7.20 lmfit-1.3.4"
        " construct-2.10.70 babel-2.19.0 pylibjpeg_openjpeg-2.6.0 python_crfsuite-0.9.12"
        " jsonnet-0.22.0",
        "NPM_PKGS": "objection@3.1.5 leaflet@1.9.4 js-yaml@4.1.0 yjs@13.6.20 mocha@10.8.2"
        " @hapi/hapi@21.3.12 chevrotain@11.0.3 @js-temporal/polyfill@0.4.4"
        " @azure/msal-common@14.16.0 react-complex-tree@2.6.4 react-native-wagmi-charts@3.0.1"
        " react-native-sortables@1.10.1 moti@0.30.0 react-native-camera@4.2.1",
        "DEBS": "golang-github-antonmedv-expr-dev=1.8.9-2 golang-github-jinzhu-gorm-dev=1.9.6-2"
        " golang-github-alecthomas-kong-dev=0.7.1-1"
        " golang-github-rivo-tview-dev=0.0~git20221029.c4a7e50-1"
        " golang-github-cockroachdb-apd-dev=2.0.1-1"
        " golang-github-puerkitobio-goquery-dev=1.1.0+git20170324.3.ed7d758-1.1"
        " librust-pest-dev=2.5.2-1 librust-tui-dev=0.19.0-1 librust-rust-decimal-dev=1.23.1-1"
        " librust-rusqlite-dev=0.28.0-4 librust-fst-dev=0.3.5-1+b1"
        " librust-pulldown-cmark-dev=0.9.2-1+b2 libosmium2-dev=2.19.0-1"
        " libgmm-dev=5.4.2+dfsg1-3+b1",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_J.split()],
        "C_GLOBS": [
            "pypi/pylibjpeg_openjpeg*/lib/openjpeg/src/lib/openjp2/*.[ch]",
            "pypi/pylibjpeg_openjpeg*/lib/openjpeg/src/lib/openjpip/*.[ch]",
            "pypi/pylibjpeg_openjpeg*/lib/openjpeg/src/bin/*/*.[ch]",
            "pypi/python_crfsuite*/crfsuite/include/*.h",
            "pypi/python_crfsuite*/crfsuite/lib/**/*.[ch]",
            "pypi/python_crfsuite*/crfsuite/frontend/*.[ch]",
            "pypi/python_crfsuite*/liblbfgs/lib/*.[ch]",
        ],
        "CPP_GLOBS": [
            "pypi/jsonnet*/core/*.cpp",
            "pypi/jsonnet*/core/*.h",
            f"{INC}/osmium/**/*.hpp",
            f"{INC}/gmm/*.h",
        ],
    },
    "k": {
        "PYPI": "simpy-4.1.1 dramatiq-1.17.0 oauthlib-3.2.2 mutagen-1.47.0 wtforms-3.1.2"
        " APScheduler-3.10.4 ecdsa-0.19.0 apsw-3.46.1.0 pycurl-7.45.3 pylzma-0.5.0"
        " pymunk-6.8.1 misaka-2.1.1 annoy-1.17.3",
        "NPM_PKGS": "bluebird@3.7.2 less@4.2.0 amqplib@0.10.4 sinon@19.0.2 matter-js@0.20.0"
        " react-native-quick-crypto@0.7.5 @glideapps/glide-data-grid@6.0.3"
        " @uiw/react-md-editor@4.0.4 react-native-code-push@8.3.1 react-native-video@5.2.1"
        " expo-av@14.0.7 react-native-fbsdk-next@13.1.3 react-native-callkeep@4.3.14"
        " react-native-tcp-socket@6.2.0",
        "DEBS": "golang-github-yuin-gopher-lua-dev=0.0~git20170915.0.eb1c729-5"
        " golang-github-robertkrimen-otto-dev=0.0~git20200922.ef014fd-2"
        " golang-github-segmentio-kafka-go-dev=0.2.1-1.1"
        " golang-github-dgraph-io-badger-dev=2.2007.2-3"
        " golang-github-valyala-fasthttp-dev=1:1.31.0-4 golang-github-go-kit-kit-dev=0.10.0-1"
        " librust-gimli-dev=0.27.0-1 librust-tower-dev=0.4.13-2 librust-ron-dev=0.7.1-1"
        " librust-euclid-dev=0.20.0-1 librust-slotmap-dev=1.0.6-1+b1"
        " librust-rustyline-dev=9.1.2-1 libarmadillo-dev=1:11.4.2+dfsg-1"
        " libtbb-dev=2021.8.0-2+deb12u1",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_K.split()],
        "C_GLOBS": [
            "pypi/apsw*/src/*.[ch]",
            "pypi/pycurl*/src/*.[ch]",
            "pypi/pylzma*/src/**/*.[ch]",
            "pypi/pymunk*/Chipmunk2D/src/*.[ch]",
            "pypi/pymunk*/Chipmunk2D/include/chipmunk/*.h",
            "pypi/misaka*/misaka/hoedown/*.[ch]",
        ],
        "CPP_GLOBS": [
            "pypi/annoy*/src/*.h",
            "pypi/annoy*/src/*.cc",
            "npm/react-native-quick-crypto*/package/cpp/**/*.cpp",
            "npm/react-native-quick-crypto*/package/cpp/**/*.h",
            f"{INC}/armadillo_bits/*.hpp",
            f"{INC}/oneapi/tbb/**/*.h",
        ],
    },
    "l": {
        "PYPI": "docutils-0.23.1 urwid-5.1.0 kazoo-2.11.0 astroid-4.4.0 mongoengine-0.29.3"
        " pyasn1-0.6.5 pygobject-3.58.1 lmdb-3.0.0 yappi-1.7.6 uwsgi-2.0.31 contourpy-1.3.3"
        " box2d-py-2.3.8",
        "NPM_PKGS": "lunr@2.3.9 papaparse@5.7.1 node-forge@1.4.4 jszip@3.10.2 backbone@1.6.1"
        " @tldraw/editor@5.5.2 @refinedev/core@5.0.12 react-native-popover-view@6.1.0"
        " react-native-ui-lib@9.1.3 react-native-notifications@5.2.2"
        " react-native-contacts@8.0.10 react-native-nfc-manager@3.17.2 react-native-pdf@7.0.5"
        " @react-native-voice/voice@3.2.4 react-native-incall-manager@4.3.0"
        " react-native-geolocation-service@5.3.1",
        "DEBS": "golang-github-charmbracelet-bubbletea-dev=0.19.1-3"
        " golang-github-hashicorp-yamux-dev=0.0+git20190923.df201c7-1"
        " golang-github-russross-blackfriday-v2-dev=2.1.0-1"
        " golang-github-evanw-esbuild-dev=0.17.0-1 golang-github-allegro-bigcache-dev=2.2.5-5"
        " golang-github-mmcdole-gofeed-dev=1.1.3-1 librust-async-std-dev=1.12.0-12"
        " librust-combine-dev=4.6.6-3 librust-im-rc-dev=15.1.0-1 librust-similar-dev=2.2.1-1"
        " librust-flume-dev=0.10.14-7 uthash-dev=2.3.0-1+b1 libsigc++-3.0-dev=3.4.0-1"
        " doctest-dev=2.4.9~ds-1 libcrypto++-dev=8.7.0+git220824-1",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_L.split()],
        "C_GLOBS": [
            "pypi/pygobject*/gi/*.[ch]",
            "pypi/lmdb*/lib/*.[ch]",
            "pypi/lmdb*/lmdb/*.[ch]",
            "pypi/yappi*/yappi/*.[ch]",
            "pypi/uwsgi*/core/*.[ch]",
            "pypi/uwsgi*/proto/*.[ch]",
            "pypi/uwsgi*/plugins/python/*.[ch]",
            f"{INC}/ut*.h",
            f"{INC}/libut.h",
            f"{INC}/ringbuf.h",
        ],
        "CPP_GLOBS": [
            "pypi/contourpy*/src/*.cpp",
            "pypi/contourpy*/src/*.h",
            "pypi/box2d*/Box2D/**/*.cpp",
            "pypi/box2d*/Box2D/**/*.h",
            f"{INC}/sigc++-3.0/sigc++/**/*.h",
            f"{INC}/doctest/*.h",
            f"{INC}/crypto++/*.h",
        ],
    },
    "m": {
        "PYPI": "feedparser-6.0.14 configobj-5.0.9 asn1crypto-1.5.1 natsort-8.4.0"
        " httplib2-0.32.1 inflect-7.6.0 netifaces-0.11.0 python-ldap-3.4.8 pycairo-1.29.2"
        " dbus-python-1.5.1 mysqlclient-2.3.2 sysv_ipc-1.2.0 zfec-1.6.0.0 nanobind-3.1.0"
        " python_rtmidi-1.5.8 levenshtein-0.27.5 RPi.GPIO-0.7.1 posix_ipc-1.3.2 pyxattr-0.8.1"
        " crcmod-1.7 python-lzo-1.15 pyscard-2.3.1 pykerberos-1.2.4 evdev-2.0.0"
        " python-prctl-1.8.1",
        "NPM_PKGS": "pako@3.0.3 mustache@4.2.0 esprima@4.0.1 hammerjs@2.0.8 sortablejs@1.15.7"
        " howler@2.2.4 stylus@0.64.0 konva@10.9.1 @notifee/react-native@9.1.8"
        " react-native-purchases@10.10.2 react-native-onesignal@5.5.13"
        " react-native-biometrics@3.0.1 react-native-inappbrowser-reborn@3.7.1"
        " react-native-pager-view@10.0.0 react-native-document-picker@9.3.1"
        " react-native-restart@0.0.29 react-native-zip-archive@9.5.1"
        " react-native-orientation-locker@1.7.0 react-native-splash-screen@3.3.0"
        " react-native-config@1.7.2 react-native-ble-manager@12.5.3"
        " react-native-exception-handler@2.10.10 react-native-print@0.11.0"
        " react-native-sensors@7.3.6",
        "DEBS": "golang-github-beevik-etree-dev=1.1.0-1 golang-github-casbin-casbin-dev=2.60.0-1"
        " golang-github-karlseguin-ccache-dev=2.0.3-1 golang-github-influxdata-influxql-dev=1.1.0-1"
        " golang-github-rcrowley-go-metrics-dev=0.0~git20180125.8732c61-3"
        " golang-github-pion-stun-dev=0.4.0-1 librust-cssparser-dev=0.29.6-3"
        " librust-kurbo-dev=0.7.1-4 librust-xml-rs-dev=0.8.3-1+b5 librust-vte-dev=0.10.1-4"
        " librust-arc-swap-dev=1.5.1-1 librust-crdts-dev=7.2.0+dfsg-4 libev-dev=1:4.33-1"
        " libpcg-cpp-dev=0.98.1-2",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_M.split()],
        "C_GLOBS": [
            "pypi/netifaces*/*.[ch]",
            "pypi/python-ldap*/Modules/*.[ch]",
            "pypi/pycairo*/cairo/*.[ch]",
            "pypi/dbus-python*/dbus_bindings/*.[ch]",
            "pypi/dbus-python*/dbus-gmain/*.[ch]",
            "pypi/mysqlclient*/src/MySQLdb/*.[ch]",
            "pypi/mysqlclient*/MySQLdb/*.[ch]",
            "pypi/sysv_ipc*/*.[ch]",
            "pypi/zfec*/zfec/*.[ch]",
            "pypi/RPi.GPIO*/source/*.[ch]",
            "pypi/posix_ipc*/src/*.[ch]",
            "pypi/posix_ipc*/*.[ch]",
            "pypi/pyxattr*/*.[ch]",
            "pypi/crcmod*/**/*.[ch]",
            "pypi/python-lzo*/*.[ch]",
            "pypi/pyscard*/src/smartcard/scard/*.[ch]",
            "pypi/pykerberos*/src/*.[ch]",
            "pypi/evdev*/src/evdev/*.[ch]",
            "pypi/evdev*/evdev/*.[ch]",
            "pypi/python-prctl*/*.[ch]",
            f"{INC}/ev.h",
        ],
        "CPP_GLOBS": [
            "pypi/nanobind*/include/nanobind/**/*.h",
            "pypi/nanobind*/src/*.cpp",
            "pypi/nanobind*/src/*.h",
            "pypi/python_rtmidi*/src/**/*.cpp",
            "pypi/python_rtmidi*/src/**/*.h",
            "pypi/levenshtein*/src/**/*.cpp",
            "pypi/levenshtein*/src/**/*.hpp",
            f"{INC}/ev++.h",
            f"{INC}/pcg_*.hpp",
        ],
    },
    "n": {
        "PYPI": "GitPython-3.2.1 gitdb-4.0.12 portion-2.6.3 multipledispatch-1.0.0 isodate-0.7.2"
        " rfc3986-2.0.0 wsproto-1.3.2 paho_mqtt-2.2.0 pillow-13.0.0 spidev-3.8 pylibmc-1.6.3"
        " pycrypto-2.6.1 bsdiff4-1.3.2 faust_cchardet-3.2.0 kiwisolver-1.5.1 pyemd-1.1.0",
        "NPM_PKGS": "cheerio@1.2.0 terser@5.51.4 uglify-js@3.19.3 csso@5.0.5 mysql2@3.25.0"
        " mqtt@5.16.0 jsdom@31.0.1 tone@15.5.44 react-native-bouncy-checkbox@4.1.4"
        " react-native-swiper-flatlist@3.2.5 react-native-animated-pagination-dots@0.1.73"
        " react-native-ratings@8.1.0 react-native-background-timer@2.4.1 react-native-sms@1.12.0"
        " react-native-wifi-reborn@4.13.6 react-native-immersive@2.0.0 react-native-app-auth@8.4.1"
        " react-native-contacts-wrapper@0.2.4 react-native-image-resizer@1.4.5"
        " react-native-tts@4.1.1 react-native-system-setting@1.7.6 react-native-send-intent@1.3.0"
        " react-native-shake@6.10.0",
        "DEBS": "golang-github-getkin-kin-openapi-dev=0.110.0-1"
        " golang-github-minio-minio-go-dev=6.0.53-1 golang-github-mdlayher-netlink-dev=1.7.1-1"
        " golang-github-bwesterb-go-ristretto-dev=1.2.2-2"
        " golang-github-aquasecurity-table-dev=1.8.0-3"
        " golang-github-influxdata-go-syslog-dev=2.0.1-1 librust-crossterm-dev=0.25.0-2"
        " librust-zvariant-dev=2.10.0-1 librust-quick-protobuf-dev=0.7.0-2"
        " librust-plotters-dev=0.3.4-3 librust-lyon-path-dev=0.15.1-1"
        " librust-proptest-dev=1.0.0-1 libasio-dev=1:1.22.1-1 libcapnp-dev=0.9.2-2"
        " libpstreams-dev=1.0.3-1",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_N.split()],
        "C_GLOBS": [
            "pypi/pillow*/src/libImaging/*.[ch]",
            "pypi/pillow*/src/*.c",
            "pypi/spidev*/*.[ch]",
            "pypi/pylibmc*/src/*.[ch]",
            "pypi/pycrypto*/src/*.[ch]",
            "pypi/bsdiff4*/bsdiff4/*.[ch]",
        ],
        "CPP_GLOBS": [
            "pypi/faust_cchardet*/src/ext/uchardet/src/*.cpp",
            "pypi/faust_cchardet*/src/ext/uchardet/src/*.h",
            "pypi/kiwisolver*/kiwi/*.h",
            "pypi/kiwisolver*/py/src/*.cpp",
            "pypi/kiwisolver*/py/src/*.h",
            "pypi/pyemd*/src/*.hpp",
            "pypi/pyemd*/pyemd/lib/*.hpp",
            f"{INC}/asio/*.hpp",
            f"{INC}/asio/detail/*.hpp",
            f"{INC}/asio/impl/*.hpp",
            f"{INC}/kj/*.h",
            f"{INC}/pstreams/pstream.h",
        ],
    },
    "o": {
        "PYPI": "xmltodict-1.0.4 docopt-0.6.2 tzlocal-5.4.5 hyperframe-6.1.0 hpack-4.2.0"
        " termcolor-3.3.0 python_slugify-9.2.0 fabric-3.2.3 coverage-7.18.0 httptools-0.9.0"
        " crc32c-2.9.post0 pyppmd-1.3.1 persistent-6.9 btrees-6.5 time_machine-3.6.0"
        " bitstruct-8.24.0 argon2_cffi_bindings-26.2.0 msgspec-0.23.0 datrie-0.8.3"
        " mapbox_earcut-2.1.0 pycld2-0.42 kenlm-0.3.0",
        "NPM_PKGS": "codemirror@5.65.21 chart.js@4.6.2 quill@2.0.3 slate@0.146.0 draft-js@0.11.7"
        " xstate@5.33.3 formik@2.4.9 typeorm@1.1.3 graphql@16.15.0"
        " react-native-haptic-feedback@3.0.0 react-native-localize@3.7.2"
        " react-native-animatable@1.4.0 react-native-modal@13.0.2"
        " react-native-toast-message@2.5.2 react-native-calendars@1.1314.0"
        " react-native-get-random-values@2.0.0 react-native-randombytes@3.6.2"
        " react-native-charts-wrapper@0.6.0 @react-native-community/blur@4.4.1"
        " react-native-fingerprint-scanner@6.0.0 react-native-background-fetch@4.4.2"
        " react-native-android-location-enabler@3.0.1 react-native-actions-sheet@10.1.2"
        " react-native-chart-kit@7.0.4 react-native-html-to-pdf@1.3.0",
        "DEBS": "golang-github-alecthomas-chroma-dev=0.10.0-3"
        " golang-github-emersion-go-imap-dev=1.2.0-2 golang-github-davecgh-go-spew-dev=1.1.1-3"
        " golang-github-pmezard-go-difflib-dev=1.0.0-3"
        " golang-github-mattn-go-runewidth-dev=0.0.14-1"
        " golang-github-roaringbitmap-roaring-dev=0.4.21-2 librust-nix-dev=0.26.1-3"
        " librust-object-dev=0.30.0-1 librust-zip-dev=0.6.3-3 librust-tar-dev=0.4.38-1"
        " librust-httparse-dev=1.8.0-1 librust-cookie-dev=0.16.0-1 libmdds-dev=2.0.3-1",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_O.split()],
        "C_GLOBS": [
            "pypi/coverage*/coverage/ctracer/*.[ch]",
            "pypi/httptools*/httptools/parser/*.[ch]",
            "pypi/httptools*/vendor/**/*.[ch]",
            "pypi/crc32c*/src/crc32c/ext/*.[ch]",
            "pypi/pyppmd*/src/**/*.[ch]",
            "pypi/persistent*/src/persistent/*.[ch]",
            "pypi/btrees*/src/BTrees/*.[ch]",
            "pypi/time_machine*/src/*.c",
            "pypi/bitstruct*/src/bitstruct/*.[ch]",
            "pypi/argon2_cffi_bindings*/extras/libargon2/**/*.[ch]",
            "pypi/msgspec*/src/msgspec/*.[ch]",
            "pypi/datrie*/libdatrie/**/*.[ch]",
        ],
        "CPP_GLOBS": [
            "pypi/mapbox_earcut*/include/**/*.hpp",
            "pypi/mapbox_earcut*/src/*.cpp",
            "pypi/pycld2*/cld2/**/*.cc",
            "pypi/pycld2*/cld2/**/*.h",
            "pypi/kenlm*/lm/**/*.cc",
            "pypi/kenlm*/lm/**/*.hh",
            "pypi/kenlm*/util/**/*.cc",
            "pypi/kenlm*/util/**/*.hh",
            f"{INC}/mdds-2.0/**/*.hpp",
            f"{INC}/mdds-2.0/**/*.inl",
        ],
    },
    "p": {
        "PYPI": "humanfriendly-10.0 colorama-0.4.6 texttable-1.7.2 markdown2-2.5.6"
        " tenacity-9.2.1 cloudpickle-3.1.3 pycparser-3.12 ply-3.11 xlrd-2.0.2 idna-3.21"
        " netaddr-1.3.0 jsonpatch-1.48 jsonpointer-3.12 python_dotenv-1.2.4 wcwidth-0.9.4"
        " py_ubjson-0.16.1 pybase64-1.5.1 pyinstrument-5.1.3",
        "NPM_PKGS": "superagent@10.4.2 htmlparser2@12.0.0 parse5@8.1.1 recast@0.24.0"
        " magic-string@1.4.5 dexie@4.4.7 localforage@1.10.0 reselect@5.3.0 normalizr@3.6.2"
        " immutable@5.2.1 class-validator@0.15.1 class-transformer@0.5.1 inversify@8.2.3"
        " tsyringe@4.10.0 final-form@5.0.1 downshift@9.5.0 react-select@5.10.2"
        " react-window@2.5.4 react-native-keep-awake@4.0.0"
        " react-native-audio-recorder-player@4.5.0 react-native-qrcode-scanner@1.6.0"
        " react-native-swipe-list-view@3.2.9 react-native-progress@5.0.1"
        " react-native-snap-carousel@3.9.1",
        "DEBS": "golang-github-jessevdk-go-flags-dev=1.4.0-6"
        " golang-github-jtacoma-uritemplates-dev=1.0.0-2 golang-github-oklog-run-dev=1.1.0-2"
        " golang-github-andybalholm-cascadia-dev=0.0~git20161224.0.349dd02-1.1"
        " golang-github-jonboulle-clockwork-dev=0.1.0-4.1"
        " golang-github-netflix-go-expect-dev=0.0~git20220104.73e0943-1"
        " golang-github-go-openapi-jsonpointer-dev=1:0.19.5-4"
        " golang-github-twstrike-otr3-dev=0.0~git20161015.0.744856d-3.1"
        " golang-github-cilium-ebpf-dev=0.9.1-1 golang-github-google-go-querystring-dev=1.1.0-2"
        " golang-github-tidwall-btree-dev=0.3.0-2 librust-ascii-dev=1.0.0-1"
        " librust-want-dev=0.3.0-1+b1 librust-failure-dev=0.1.7-1 librust-cpal-dev=0.10.0-2"
        " librust-simdutf8-dev=0.1.4-3 librust-cc-dev=1.0.73-1 librust-subtle-dev=2.4.1-1"
        " librust-async-broadcast-dev=0.4.1-1 librust-portable-atomic-dev=0.3.19-1"
        " librust-assert-cmd-dev=2.0.7-2 librust-hex-dev=0.4.3-1+b2 librust-strsim-dev=0.10.0-1"
        " libtsl-ordered-map-dev=1.0.0-1 libargs-dev=6.4.1-1 libeasyloggingpp-dev=9.97.0+dfsg-1"
        " libcxxtools-dev=3.0.0-1.1",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_P.split()],
        "C_GLOBS": [
            "pypi/py_ubjson*/src/*.[ch]",
            "pypi/pybase64*/**/*.[ch]",
            "pypi/pyinstrument*/pyinstrument/low_level/*.[ch]",
        ],
        "CPP_GLOBS": [
            f"{INC}/tsl/ordered_*.h",
            f"{INC}/args.hxx",
            f"{INC}/easylogging++.h",
            f"{INC}/cxxtools/**/*.h",
        ],
    },
    "q": {
        "PYPI": "pyperclip-1.11.0 tinydb-4.9.0 pyee-13.0.1 frozendict-2.5.1 yarl-1.25.1"
        " propcache-0.5.4 aiohttp-3.14.5 pysha3-1.0.2",
        "NPM_PKGS": "lru-cache@11.5.4 idb@8.0.4 lowdb@7.0.1 @redux-saga/core@1.5.1"
        " seamless-immutable@7.1.4 fastest-validator@1.19.1 react-virtualized@10.0.0"
        " source-map@0.8.0 espree@11.2.0 react-native-udp@4.1.7 react-native-zeroconf@0.14.0"
        " react-native-sqlite-storage@6.0.1 react-native-background-actions@4.1.0"
        " react-native-call-detection@1.9.0 react-native-iap@16.7.1"
        " react-native-music-control@1.4.1 react-native-bluetooth-classic@0.10.12"
        " react-native-wifi-p2p@3.6.1 react-native-exit-app@2.0.0"
        " react-native-immediate-phone-call@2.0.0 react-native-android-open-settings@1.3.0"
        " react-native-volume-manager@2.2.0 react-native-brightness@1.0.3",
        "DEBS": "golang-github-pion-randutil-dev=0.1.0-2 golang-github-bkaradzic-go-lz4-dev=1.0.0-5"
        " golang-github-xhit-go-simple-mail-dev=2.13.0-1"
        " golang-github-goccmack-gocc-dev=0.0~git20211213.7ea6993-1"
        " golang-github-shenwei356-natsort-dev=0.0~git20190418.600d539-3"
        " golang-github-hashicorp-go-cleanhttp-dev=0.5.2-1"
        " golang-github-nebulouslabs-entropy-mnemonics-dev=0.0~git20170316.0.7b01a64-1.1"
        " golang-github-ianlancetaylor-demangle-dev=0.0~git20200824.28f6c0f-2"
        " golang-github-jedisct1-go-dnsstamps-dev=0.1.3-1"
        " golang-github-victoriametrics-victoriametrics-dev=1.79.5+ds1-2"
        " librust-try-from-dev=0.3.2-2 librust-cargo-dev=0.66.0-1 librust-inotify-sys-dev=0.1.5-1"
        " librust-xmlwriter-dev=0.1.0-2 librust-lyon-geom-dev=0.15.0-2"
        " librust-stringprep-dev=0.1.2-1+b1 librust-nitrokey-sys-dev=3.4.3-2"
        " librust-password-hash-dev=0.4.2-1+b1 librust-gtk-sys-dev=0.14.0-2"
        " librust-assert-json-diff-dev=2.0.2-4",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_Q.split()],
        "C_GLOBS": [
            "pypi/aiohttp*/vendor/llhttp/**/*.[ch]",
            "pypi/frozendict*/**/*.[ch]",
            "pypi/pysha3*/Modules/**/*.[ch]",
        ],
        "CPP_GLOBS": [],
    },
    "r": {
        "PYPI": "intervaltree-3.2.1 mistune-3.4.0 autopep8-2.3.2 mccabe-0.7.0 rsa-4.9.1"
        " PyJWT-2.15.1 limits-5.8.0 sortedcollections-2.1.0 tomli-2.5.0 tomli_w-1.2.0"
        " pygtrie-2.6.2 peewee-4.5.3 croniter-7.0.0 tablib-3.10.0 prettytable-3.19.0"
        " loguru-0.7.3 websockets-17.4 lru_dict-1.4.1 inflate64-1.0.4"
        " pybcj-1.0.8 PyAudio-0.2.14 scrypt-0.9.4 memray-1.20.0",
        "NPM_PKGS": "mathjs@15.2.0 decimal.js@10.6.0 bignumber.js@11.1.5 fuse.js@7.5.0"
        " minisearch@7.2.0 idb-keyval@6.3.0 pinia@4.1.0 solid-js@2.0.3 alpinejs@3.17.5"
        " @hotwired/stimulus@3.2.2 htmx.org@4.0.1 @popperjs/core@2.11.8 tippy.js@6.3.7"
        " popmotion@11.0.5 cannon-es@0.20.0 planck@1.5.0 effector@23.4.4 remeda@2.62.2"
        " showdown@2.1.0 prismjs@1.30.0 react-native-view-shot@6.0.1"
        " react-native-file-viewer@2.1.5 react-native-mail@6.1.1 react-native-torch@1.2.0"
        " react-native-background-upload@6.6.0 react-native-sms-retriever@1.1.1"
        " @react-native-clipboard/clipboard@1.16.3 react-native-calendar-events@2.2.0"
        " react-native-call-log@3.0.0 react-native-google-mobile-ads@17.2.0"
        " cordova-plugin-inappbrowser@7.0.0 cordova-plugin-geolocation@5.0.0"
        " cordova-plugin-media@7.0.0 cordova-plugin-device@3.0.0"
        " cordova-plugin-network-information@3.1.0",
        "DEBS": "golang-github-pion-rtcp-dev=1.2.10-1"
        " golang-github-biogo-store-dev=0.0~git20200525.8c94ae1-2"
        " golang-github-xlab-treeprint-dev=0.0~git20181112.a009c39-1"
        " golang-github-gobwas-httphead-dev=0.1.0-2 golang-github-shenwei356-util-dev=0.5.0-1"
        " golang-github-hashicorp-go-azure-helpers-dev=0.13.1-3"
        " golang-github-nebulouslabs-ed25519-dev=0.0~git20150728.0.0e573b1-1.1"
        " golang-github-iancoleman-orderedmap-dev=0.2.0-2"
        " golang-github-jedisct1-go-clocksmith-dev=0.0~git20210101.da382b9-1"
        " golang-github-vincent-petithory-dataurl-dev=0.0~git20191104.d1553a7-1.1"
        " librust-retry-dev=2.0.0-3 librust-selectors-dev=0.23.0-1"
        " librust-waker-fn-dev=1.1.0-1+b1 librust-locale-dev=0.2.2-1+b1"
        " librust-valuable-derive-dev=0.1.0-1+b1 librust-vt100-dev=0.15.1-2"
        " librust-dissimilar-dev=1.0.2-1 librust-peeking-take-while-dev=0.1.2-1+b1"
        " librust-serde-big-array-dev=0.4.1-1+b1 librust-libsodium-sys-dev=0.2.7-1"
        " libconcurrentqueue-dev=1.0.3+ds-1 libcpptoml-dev=0.1.1-3 libdbus-cpp-dev=5.0.3-4"
        " libcuckoo-dev=0.3.1-2 libflathashmap-dev=0.0+git20180715.2c46874-2"
        " libvalijson-dev=1.0+repack-2 libnest2d-dev=5.0.0-1 libargh-dev=1.3.2+ds-2"
        " libjsmn-dev=1.1.0-2",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_R.split()],
        "C_GLOBS": [
            *(f"pypi/{p}*/src/**/*.[ch]" for p in ("lru_dict", "inflate64", "pybcj", "PyAudio")),
            "pypi/scrypt*/**/*.[ch]",
            "pypi/websockets*/src/**/*.c",
            "pypi/memray*/src/vendor/libbacktrace/*.[ch]",
            f"{INC}/jsmn.h",
            f"{INC}/libcuckoo-c/*.h",
        ],
        "CPP_GLOBS": [
            "pypi/memray*/src/memray/_memray/*.[ch]pp",
            "pypi/memray*/src/memray/_memray/*.h",
            f"{INC}/concurrentqueue/*.h",
            f"{INC}/cpptoml.h",
            f"{INC}/*_map.hpp",
            f"{INC}/libcuckoo/*.hh",
            f"{INC}/valijson/**/*.hpp",
            f"{INC}/libnest2d/**/*.hpp",
            f"{INC}/argh.h",
            f"{INC}/core/dbus/**/*.h",
        ],
    },
    "s": {
        "PYPI": "pathspec-1.1.1 inflection-0.5.1 charset_normalizer-3.5.3 flake8-7.5.0"
        " responses-0.26.3 fastjsonschema-2.22.3 simpleeval-1.0.8 asteval-1.0.10"
        " portalocker-4.4.2 huey-3.5.4 vine-5.1.0 html5lib-1.1 markdownify-1.2.3 ftfy-6.3.1"
        " radon-6.0.1 vulture-2.16 filelock-4.3.2 validators-0.36.0 tldextract-5.4.0"
        " billiard-4.3.2 bottleneck-1.6.1 zlib_ng-1.1.0 brotlicffi-1.2.1.0"
        " pyroaring-1.2.0",
        "NPM_PKGS": "ofetch@1.5.1 radash@12.1.1 ts-pattern@5.9.2 rrule@2.8.1 cron-parser@5.10.7"
        " tinycolor2@1.6.0 fflate@0.8.3 crypto-js@4.2.0 tweetnacl@1.0.3 bn.js@5.2.5"
        " elliptic@6.6.1 @urql/core@6.0.3 valtio@2.3.2 kysely@0.29.9 dompurify@3.5.0"
        " turndown@7.2.5 uplot@1.6.32 animejs@4.5.0 sanitize-html@2.18.2 relay-runtime@21.0.1"
        " react-native-sound-player@0.14.5 @react-native-community/blur@4.4.1"
        " react-native-in-app-review@4.4.2 react-native-encrypted-storage@4.0.3"
        " react-native-sensitive-info@6.1.4 react-native-otp-verify@1.2.0"
        " react-native-quick-actions@0.3.13 react-native-share-menu@6.0.0"
        " react-native-device-brightness@1.2.0 cordova-plugin-statusbar@4.0.0"
        " cordova-plugin-vibration@3.1.1 cordova-plugin-dialogs@2.0.2"
        " cordova-plugin-battery-status@2.0.3 cordova-plugin-media-capture@6.0.0"
        " cordova-plugin-screen-orientation@3.0.4 cordova-plugin-file-transfer@2.0.0",
        "DEBS": "golang-github-vbatts-go-mtree-dev=0.4.4-2"
        " golang-github-docker-go-connections-dev=0.4.0-4 golang-github-juju-schema-dev=1.0.1-1"
        " golang-github-ant0ine-go-json-rest-dev=3.3.2-3"
        " golang-github-hashicorp-atlas-go-dev=0.0~git20230125.46e9b3e-1"
        " golang-github-bmizerany-assert-dev=0.0~git20120716-4"
        " golang-github-yourbasic-graph-dev=1.0.5-3"
        " golang-github-elazarl-go-bindata-assetfs-dev=1.0.0-1.1"
        " golang-github-surma-gocpio-dev=1.1.0+git20160926.fcb6877-1.1"
        " golang-github-tideland-golib-dev=4.24.2-1 librust-prost-derive-dev=0.11.6-2"
        " librust-x11-clipboard-dev=0.6.1-1 librust-thin-slice-dev=0.1.1-1+b1"
        " librust-futf-dev=0.1.4-1+b1 librust-lazycell-dev=1.3.0-3 librust-antidote-dev=1.0.0-3"
        " librust-byte-slice-cast-dev=1.2.1-1 librust-dotenv-dev=0.15.0-2+b6"
        " librust-ttrpc-dev=0.5.2-3 librust-lexiclean-dev=0.0.1-1+b1 cppzmq-dev=4.9.0-1"
        " libpistache-dev=0.0.5+ds-3 libsml-dev=0.1.1+git20180125-1.1 libplf-colony-dev=7.10-1"
        " libfplus-dev=0.2.13-1+b1 libcrossguid-dev=0.0+git200150803-6"
        " libcmocka-dev=1.1.5-2.1 libcriterion-dev=2.4.1-2 libsimde-dev=0.7.4~rc2-2",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_S.split()],
        "C_GLOBS": [
            "pypi/billiard*/Modules/**/*.[ch]",
            "pypi/bottleneck*/bottleneck/src/*.[ch]",
            "pypi/zlib_ng*/src/zlib_ng/*.c",
            "pypi/zlib_ng*/src/zlib_ng/zlib-ng/*.[ch]",
            "pypi/zlib_ng*/src/zlib_ng/zlib-ng/arch/x86/*.[ch]",
            "pypi/brotlicffi*/libbrotli/c/**/*.[ch]",
            "pypi/pyroaring*/pyroaring/roaring.[ch]",
            *(f"{INC}/{p}" for p in ("cmocka*.h", "cmockery/*.h", "criterion/*.h", "sml/*.h")),
            *(f"{INC}/{p}" for p in ("criterion/internal/*.h", "simde/*.h", "simde/x86/*.h")),
        ],
        "CPP_GLOBS": [
            f"{INC}/zmq*.hpp",
            f"{INC}/pistache/**/*.h",
            f"{INC}/fplus/**/*.hpp",
            f"{INC}/plf_colony.h",
            f"{INC}/guid.h",
        ],
    },
    "t": {
        "PYPI": "chardet-7.7.0 pyserial-3.5 redis-8.1.0 passlib-1.7.4 pyopenssl-26.4.0"
        " diskcache-5.6.3 trio-0.35.0 tornado-6.6.1 alembic-1.20.1 openpyxl-3.1.5"
        " xlsxwriter-3.3.1 pypdf-7.1.0 jedi-0.20.1 hypothesis-6.170.15 mpmath-1.4.1 kombu-5.7.0"
        " python_socketio-5.18.1 dateparser-1.5.0 markdown_it_py-4.3.0 typeguard-4.6.0"
        " pygame-2.6.1 shapely-2.2.0 pycosat-0.6.6 numexpr-2.14.2 llvmlite-0.50.0",
        "NPM_PKGS": "@sinclair/typebox@0.34.52 chrono-node@2.10.3 ol@10.11.0 drizzle-orm@0.45.4"
        " mongodb@7.9.1 @noble/hashes@2.4.0 exceljs@4.4.0 @apollo/client@4.3.8 ra-core@5.15.4"
        " @uiw/react-codemirror@4.25.12 react-native-ui-datepicker@3.3.0"
        " @react-native-community/geolocation@3.4.0 @react-native-camera-roll/camera-roll@7.10.2"
        " react-native-touch-id@4.4.1 react-native-signature-capture@0.4.12"
        " react-native-bluetooth-escpos-printer@0.0.5 react-native-appsflyer@6.18.0"
        " cordova-plugin-advanced-http@3.3.1 cordova-plugin-local-notification@1.2.3"
        " cordova-plugin-contacts@3.0.1",
        "DEBS": "golang-code.cloudfoundry-bytefmt-dev=0.0~git20190818.854d396-2"
        " golang-code.rocketnine-tslocum-cview-dev=1.5.4-2"
        " golang-github-glendc-go-external-ip-dev=0.1.0-2"
        " golang-github-jcmturner-gofork-dev=1.0.0-4"
        " golang-github-dchest-cssmin-dev=0.0~git20151210.0.fb8d9b4-4.1"
        " golang-github-yosssi-ace-dev=0.0.5-3.1 golang-github-golang-jwt-jwt-dev=4.4.3-1"
        " golang-github-zclconf-go-cty-yaml-dev=1.0.2-3 golang-github-zenazn-goji-dev=1.0.1-2"
        " golang-github-koofr-go-koofrclient-dev=0.0~git20190724.8e5366d-2"
        " librust-gio-sys-dev=0.14.0-2 librust-grep-matcher-dev=0.1.5-2"
        " librust-proc-macro-error-attr-dev=1.0.3-1 librust-safemem-dev=0.3.3-1"
        " librust-protoc-rust-dev=2.27.1-1+b1 librust-y4m-dev=0.7.0-1+b1"
        " librust-phf-codegen-dev=0.10.0-2 librust-opener-dev=0.5.0-1+b1"
        " librust-zeroize-dev=1.5.7-2 librust-liboverdrop-dev=0.0.2-1+b2"
        " libevent-dev=2.1.12-stable-8+deb12u1 libcbor-dev=0.8.0-2+b1"
        " libmosquitto-dev=2.0.11-1.2+deb12u2 libmicrohttpd-dev=0.9.75-6"
        " libbackward-cpp-dev=1.6-1 libtrompeloeil-cpp-dev=43-3"
        " tao-json-dev=0.0+git20200604.f357d72-2 libfast-float-dev=3.9.0-1"
        " librestinio-dev=0.6.16-0.2",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_T.split()],
        "C_GLOBS": [
            *(f"pypi/pygame*/src_c/{p}" for p in ("*.[ch]", "freetype/*.[ch]", "include/*.h")),
            "pypi/pygame*/src_c/SDL_gfx/*.[ch]",
            "pypi/shapely*/src/**/*.[ch]",
            "pypi/pycosat*/*.[ch]",
            *(f"{INC}/{p}" for p in ("event2/*.h", "ev*.h", "cbor.h", "cbor/**/*.h")),
            *(f"{INC}/{p}" for p in ("mosquitto.h", "mqtt_protocol.h", "microhttpd.h")),
        ],
        "CPP_GLOBS": [
            "pypi/numexpr*/numexpr/*.[ch]pp",
            "pypi/llvmlite*/ffi/*.cpp",
            "pypi/llvmlite*/ffi/*.h",
            f"{INC}/backward.hpp",
            f"{INC}/trompeloeil.hpp",
            f"{INC}/tao/json/*.hpp",
            *(f"{INC}/tao/json/{d}/**/*.hpp" for d in _TAO_JSON),
            f"{INC}/fast_float/*.h",
            f"{INC}/restinio/*.hpp",
            *(f"{INC}/restinio/{d}/**/*.hpp" for d in _RESTINIO),
        ],
    },
    "u": {
        "PYPI": "bottle-0.13.5 waitress-3.0.2 cherrypy-18.10.0 uvicorn-0.55.0 sanic-25.12.1"
        " fire-0.7.1 argcomplete-3.7.2 nox-2026.10.20 petl-1.7.30 pymysql-1.2.4 agate-1.14.2"
        " textx-4.4.0 xmlschema-4.3.2 aiofiles-25.1.0 aiosqlite-0.22.1 aiostream-0.8.1"
        " freezegun-1.5.5 pyfakefs-6.3.2 factory_boy-3.3.3 vcrpy-9.4.2 gmpy2-2.3.2"
        " mod_wsgi-6.1.1 guppy3-3.1.7 gemmi-0.7.5 onnx-1.23.2",
        "NPM_PKGS": "fast-xml-parser@5.12.1 peggy@5.1.0 mithril@2.3.8 @apollo/server@5.5.1"
        " redux-persist@6.0.0 proj4@2.22.0 csv-parse@7.0.3 @visx/shape@4.0.0"
        " react-native-drawer-layout@4.2.13 react-native-toast-notifications@3.4.0"
        " @rnmapbox/maps@10.3.5 @sentry/react-native@8.28.0"
        " @react-native-firebase/messaging@26.4.0 react-native-razorpay@3.0.0"
        " react-native-rsa-native@2.0.5 mixpanel-react-native@3.8.0"
        " cordova-plugin-googlemaps@2.7.1 cordova-plugin-ble-central@2.0.0"
        " cordova-sqlite-storage@7.0.0",
        "DEBS": "golang-github-packethost-packngo-dev=0.2.0-3"
        " golang-github-bshuster-repo-logrus-logstash-hook-dev=0.4.1-2"
        " golang-github-mdlayher-ndp-dev=1.0.0-1"
        " golang-github-yuin-gluare-dev=0.0~git20170607.d7c94f1-2"
        " golang-github-go-openapi-strfmt-dev=0.21.2-1 golang-github-appleboy-gofight-dev=2.1.2-3"
        " golang-github-0xax-notificator-dev=0.0~git20210731.c42e3d4-1.1"
        " golang-github-cupcake-rdb-dev=0.0~git20161107.0.43ba341-12"
        " golang-github-smallstep-cli-dev=0.15.16+ds-3 golang-github-pion-datachannel-dev=1.5.5-1"
        " librust-utf8parse-dev=0.2.0-1 librust-clircle-dev=0.3.0-1+b2"
        " librust-simplelog-dev=0.12.0-2 librust-isahc-dev=1.7.2+ds-20"
        " librust-base-x-dev=0.2.3-1+b1 librust-ab-glyph-rasterizer-dev=0.1.7-1+b1"
        " librust-educe-dev=0.4.19-2 librust-wayland-egl-dev=0.29.4-1+b1"
        " librust-servo-fontconfig-sys-dev=5.1.0-2 librust-pin-project-dev=1.0.10-1"
        " libck-dev=0.7.1-10 liburcu-dev=0.13.2-1 libdtl-dev=1.20-1 vspline-dev=1.0.2-1"
        " libkdtree++-dev=0.7.1+git20101123-6 libbiosoup-dev=0.10.0-4",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_U.split()],
        "C_GLOBS": [
            "pypi/gmpy2*/src/*.[ch]",
            "pypi/mod_wsgi*/src/server/*.[ch]",
            "pypi/guppy3*/src/**/*.[ch]",
            *(f"{INC}/{p}" for p in ("ck_*.h", "gcc/**/ck_*.h", "spinlock/*.h")),
            f"{INC}/x86_64-linux-gnu/urcu*.h",
            f"{INC}/x86_64-linux-gnu/urcu/**/*.h",
        ],
        "CPP_GLOBS": [
            "pypi/gemmi*/include/gemmi/*.hpp",
            "pypi/gemmi*/src/*.cpp",
            "pypi/onnx*/onnx/**/*.cc",
            "pypi/onnx*/onnx/**/*.h",
            f"{INC}/dtl/*.hpp",
            f"{INC}/vspline/**/*.h",
            f"{INC}/kdtree++/*.hpp",
            f"{INC}/biosoup/*.hpp",
        ],
    },
    "v": {
        "PYPI": "sqlalchemy-2.1.9 pylint-4.1.5 rdflib-7.6.0 zeep-4.3.3 httpie-3.2.4 invoke-3.0.3"
        " pyyaml-6.0.4 dill-0.4.1 emoji-2.16.0 dacite-1.9.2 requests-toolbelt-1.0.0"
        " websocket_client-1.9.2 defusedxml-0.7.1 jsonpath_ng-1.17.0 omegaconf-2.4.0"
        " pdfminer_six-20260107 python_docx-1.2.0 textual-8.2.8 watchdog-7.1.1"
        " fsspec-2026.9.0 sympy-1.14.0 pysqlite3-0.6.1 meinheld-1.0.2 bjoern-3.2.2"
        " boost_histogram-1.8.1 iminuit-2.33.0 webrtcvad-2.0.10 ijson-3.6.0 oracledb-26.1.0",
        "NPM_PKGS": "eslint@10.16.0 webpack@5.113.0 micromark@4.0.3 runtypes@7.0.5 rxdb@17.6.0"
        " mobx-keystone@2.2.0 tailwind-merge@3.7.3 @patternfly/react-table@6.6.1"
        " @react-navigation/elements@2.9.45 @react-navigation/native-stack@7.21.0"
        " @react-native-firebase/firestore@26.4.0 @react-native-firebase/auth@26.4.0"
        " @intercom/intercom-react-native@10.7.1 react-native-wheel-picker-android@2.0.6"
        " react-native-alarm-notification@1.8.0 react-native-youtube@2.0.2"
        " cordova-plugin-calendar@5.1.6 cordova-plugin-fingerprint-aio@6.0.1"
        " cordova-plugin-background-mode@0.7.3",
        "DEBS": "golang-github-hashicorp-errwrap-dev=1.1.0-1"
        " golang-github-cristalhq-hedgedhttp-dev=0.7.2-2"
        " golang-github-jeromer-syslogparser-dev=0~20150717.ff71fe7a-1.1"
        " golang-github-sercand-kuberesolver-dev=3.1.1-1 golang-github-appc-goaci-dev=0.1.1-2"
        " golang-github-beorn7-perks-dev=1.0.1-1 golang-gopkg-redis.v5-dev=5.2.9-4"
        " golang-github-muhammadmuzzammil1998-jsonc-dev=0.0~git20201229.615b091-2"
        " golang-github-btcsuite-btcd-btcec-dev=0.0~git20161101.0.g8343278-1.1"
        " golang-github-integrii-flaggy-dev=1.4.0-1 librust-gsk4-dev=0.3.1-1+b1"
        " librust-crossbeam-0.3-dev=0.3.2-1+b1 librust-libsqlite3-sys-dev=0.25.1-1"
        " librust-block-modes-dev=0.7.0-1 librust-postgres-derive-dev=0.4.3-1+b1"
        " librust-inventory-dev=0.3.2-1 librust-bigdecimal-dev=0.3.0-1"
        " librust-pathdiff-dev=0.2.1-1+b1 librust-ena-dev=0.14.0-2"
        " librust-async-process-dev=1.6.0-4 libcglm-dev=0.8.8-1"
        " libspa-0.2-dev=0.3.65-3+deb12u1 xtl-dev=0.7.2-2.1 tiny-dnn=1.0.0a3+ds-3"
        " libcpp-jwt-dev=1.4+ds-3 libviennacl-dev=1.7.1+dfsg1-6",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_V.split()] + ["pypi/sympy*/sympy/core/*.py"],
        "C_GLOBS": [
            "pypi/pysqlite3*/src/*.[ch]",
            "pypi/meinheld*/meinheld/server/[!h]*.[ch]",
            "pypi/meinheld*/meinheld/server/h[!t]*.[ch]",
            "pypi/meinheld*/meinheld/server/http_request_parser.[ch]",
            "pypi/bjoern*/bjoern/*.[ch]",
            "pypi/webrtcvad*/cbits/**/*.[ch]",
            "pypi/ijson*/src/ijson/backends/ext/_yajl2/*.[ch]",
            "pypi/oracledb*/src/oracledb/impl/thick/odpi/src/*.[ch]",
            f"{INC}/cglm/**/*.h",
            f"{INC}/spa-0.2/spa/**/*.h",
        ],
        "CPP_GLOBS": [
            "pypi/boost_histogram*/include/bh_python/**/*.hpp",
            "pypi/boost_histogram*/src/*.cpp",
            "pypi/boost_histogram*/extern/histogram/include/boost/histogram/**/*.hpp",
            "pypi/iminuit*/src/*.[ch]pp",
            "pypi/iminuit*/extern/root/math/minuit2/src/**/*.cxx",
            "pypi/iminuit*/extern/root/math/minuit2/inc/Minuit2/*.h",
            f"{INC}/xtl/*.hpp",
            f"{INC}/tiny_dnn/**/*.h",
            f"{INC}/jwt/**/*.[hi]pp",
            *(f"{INC}/viennacl/{d}*.hpp" for d in _VIENNACL),
        ],
    },
    "w": {
        "PYPI": "anytree-2.13.0 asttokens-3.0.2 bitstring-5.0.0 blessed-1.53.0 cmd2-4.3.1"
        " dpkt-1.9.8 json5-0.17.3 ldap3-2.9.1 marko-2.2.4 mistletoe-1.6.0 parsedatetime-2.6"
        " pefile-2024.8.26 pika-1.4.4 pyelftools-0.33 pyotp-2.12.1 rope-1.15.2 segno-1.6.6"
        " stevedore-5.10.0 strictyaml-1.7.3 treelib-1.8.0 pyeda-0.29.0 quickjs-1.19.4"
        " mappy-2.31 pyblake2-1.1.2 DAWG-0.8.0 py-tlsh-5.0.0",
        "NPM_PKGS": "expo-image@58.0.19 @marceloterreiro/flash-calendar@2.0.0"
        " react-native-autocomplete-dropdown@5.1.0 react-native-circular-progress-indicator@4.4.2"
        " @openspacelabs/react-native-zoomable-view@2.4.2 @lodev09/react-native-true-sheet@3.11.14"
        " react-native-unistyles@3.3.0 dripsy@4.3.8 true-myth@9.4.0 escodegen@2.1.0"
        " esquery@1.7.0 jsonwebtoken@9.0.3 bcryptjs@3.0.3 rn-fetch-blob@0.12.0"
        " react-native-thermal-receipt-printer@1.1.5 react-native-twilio-video-webrtc@3.2.1"
        " react-native-jitsi-meet@2.3.1 react-native-ffmpeg@0.5.2"
        " @terrylinla/react-native-sketch-canvas@0.8.0 cordova-plugin-camera-preview@0.14.0"
        " cordova-plugin-email-composer@0.10.1 phonegap-nfc@1.2.0",
        "DEBS": "golang-github-fatih-structs-dev=1.0.0-1.1"
        " golang-github-jackc-fake-dev=0.0~git20150926.812a484-3"
        " golang-github-jackpal-go-nat-pmp-dev=1.0.2-3"
        " golang-github-cockroachdb-cockroach-go-dev=0.0~git20170808.c806b48-1.1"
        " golang-github-docker-spdystream-dev=0.2.0-1"
        " golang-github-timberio-go-datemath-dev=0.1.0+git20200323.74ddef6-3"
        " golang-github-apparentlymart-go-cidr-dev=1.1.0-2"
        " golang-github-bmizerany-pat-dev=0.0~git20170814.6226ea5-1"
        " golang-github-containers-conmon-dev=2.1.6+ds1-1"
        " golang-github-gin-contrib-cors-dev=1.4.0-1+deb12u1 librust-enumn-dev=0.1.6-1+b1"
        " librust-jemalloc-sys-dev=0.3.2-2 librust-khronos-egl-dev=4.1.0-4"
        " librust-concolor-query-dev=0.1.0-1 librust-difflib-dev=0.4.0-1+b1"
        " librust-string-dev=0.2.1-2+b1 librust-atomic-waker-dev=1.0.0-1+b1"
        " librust-extprim-dev=1.7.1-1 librust-vm-superio-dev=0.7.0-2"
        " librust-pcre2-dev=0.2.3-1 librust-easy-ext-dev=1.0.1-1"
        " librust-semver-parser-0.7-dev=0.7.0-1+b1 librust-assert-cli-dev=0.6.3-4"
        " librust-normalize-line-endings-dev=0.3.0-1+b2 librust-os-str-bytes-dev=6.0.0-1+b1"
        " librust-nodrop-dev=0.1.13-1+b1 librust-libslirp-dev=4.3.0-3+b4"
        " librust-pamsm-dev=0.5.2-1+b1 libbase16384-dev=2.2.2-1 libspectra-dev=1.0.1-2"
        " libtut-dev=0.0.20070706-3 libatomic-queue-dev=0.0+git20220518.83774a2-1",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_W.split()],
        "C_GLOBS": [
            "pypi/pyeda*/extension/boolexpr/*.[ch]",
            "pypi/pyeda*/thirdparty/espresso/src/*.[ch]",
            "pypi/quickjs*/upstream-quickjs/*.[ch]",
            # (minimap2's own files, not the klib headers it bundles)
            "pypi/mappy*/[!k]*.[ch]",
            *(f"pypi/mappy*/{p}*.[ch]" for p in ("ksw2", "kalloc", "kthread")),
            "pypi/pyblake2*/impl/*.[ch]",
            f"{INC}/base16384.h",
        ],
        "CPP_GLOBS": [
            "pypi/DAWG*/lib/dawgdic/*.h",
            "pypi/py-tlsh*/src/*.cpp",
            "pypi/py-tlsh*/include/*.h",
            f"{INC}/Spectra/**/*.h",
            f"{INC}/tut/*.hpp",
            f"{INC}/atomic_queue/*.h",
        ],
    },
    "x": {
        "PYPI": "astral-3.2 geopy-2.5.0 svgwrite-1.4.3 pydot-4.0.1 textdistance-4.6.3 Whoosh-2.7.4"
        " w3lib-2.5.0 stomp_py-9.0.0 dnslib-0.9.26 python_crontab-3.4.0 fpdf2-2.8.9"
        " colorlog-6.12.0 environs-15.2.0 tinycss2-1.5.1 odfpy-1.4.1 feedgen-1.0.0"
        " Chameleon-4.6.0 rq-3.0.0 asciimatics-1.15.0 yapf-0.43.0 pysptk-1.0.1 jellyfish-0.9.0"
        " TgCrypto-1.2.5 pyminizip-0.2.6 simpleaudio-1.0.4 pyworld-0.3.5 pyfarmhash-0.5.1"
        " fastnumbers-5.2.0 pyclustering-0.10.1.2",
        "NPM_PKGS": "highlight.js@11.12.0 clean-css@5.3.3 svgo@4.1.0 @noble/ciphers@2.4.0"
        " @tanstack/pacer@0.22.0 @milkdown/core@7.22.1 @howljs/calendar-kit@2.5.6"
        " react-native-graph@1.4.0 react-native-star-rating-widget@1.11.0"
        " @likashefqet/react-native-image-zoom@4.3.0 react-native-qrcode-styled@0.4.0"
        " @10play/tentap-editor@1.0.1 react-native-avoid-softinput@9.0.1"
        " react-native-image-filter-kit@0.8.0 react-native-nordic-dfu@3.2.1"
        " react-native-vlc-media-player@1.0.98 react-native-ssl-pinning@1.6.0"
        " react-native-get-sms-android@2.1.0 react-native-keyevent@0.3.2"
        " cordova-plugin-printer@0.8.0 cordova-plugin-globalization@1.11.0"
        " cordova-plugin-x-socialsharing@6.0.4 node-addon-api@8.9.2",
        "DEBS": "golang-github-makeworld-the-better-one-go-isemoji-dev=1.1.0-3"
        " golang-github-remeh-sizedwaitgroup-dev=0.0~git20180822.5e7302b-1.1"
        " golang-github-jacobsa-oglematchers-dev=0.0~git20150320-3"
        " golang-github-coreos-gexpect-dev=0.1.1-3"
        " golang-github-docker-docker-credential-helpers-dev=0.6.4+ds1-1"
        " golang-github-stvp-go-udp-testing-dev=0.0~git20150316.0.abcd331-3"
        " golang-dbus-dev=5.1.0-1 golang-github-hillu-go-yara-dev=4.2.4-2"
        " golang-github-mitch000001-go-hbci-dev=0.4.0-2"
        " golang-github-malfunkt-iprange-dev=0.9.0-4 librust-num-format-dev=0.4.0-4"
        " librust-rustc-std-workspace-std-dev=1.0.1-1+b2 librust-lalrpop-util-dev=0.19.8-1"
        " librust-freetype-rs-dev=0.26.0-1+b2 librust-core-graphics-dev=0.22.3-1+b1"
        " librust-derive-more-dev=0.99.11-1 librust-slog-async-dev=2.7.0-1"
        " librust-adler32-dev=1.2.0-1 librust-humansize-dev=1.1.0-2"
        " librust-permutohedron-dev=0.2.4-3 libprotozero-dev=1.7.1-1"
        " libsimpleini-dev=4.19+dfsg-1+b1",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_X.split()],
        "C_GLOBS": [
            "pypi/pysptk*/lib/SPTK/**/*.[ch]",
            "pypi/jellyfish*/cjellyfish/*.[ch]",
            "pypi/TgCrypto*/tgcrypto/*.[ch]",
            # (pyminizip's own files and minizip's, not the zlib it bundles)
            "pypi/pyminizip*/src/*.[ch]",
            "pypi/pyminizip*/zlib-*/contrib/minizip/*.[ch]",
            "pypi/simpleaudio*/c_src/*.[ch]",
        ],
        "CPP_GLOBS": [
            "pypi/pyworld*/lib/World/src/*.cpp",
            "pypi/pyworld*/lib/World/src/world/*.h",
            "pypi/pyfarmhash*/src/*.cc",
            "pypi/pyfarmhash*/src/*.h",
            # (fastnumbers' own files, not the fast_float it bundles)
            "pypi/fastnumbers*/include/fastnumbers/*.hpp",
            "pypi/fastnumbers*/include/fastnumbers/parser/*.hpp",
            "pypi/fastnumbers*/src/cpp/*.cpp",
            *(f"pypi/pyclustering*/ccore/src/{d}/*.cpp" for d in _CCORE),
            *(f"pypi/pyclustering*/ccore/include/pyclustering/{d}/*.hpp" for d in _CCORE),
            f"{INC}/protozero/*.hpp",
            f"{INC}/SimpleIni.h",
            "npm/node-addon-api*/package/*.h",
        ],
    },
    "y": {
        "PYPI": "gpxpy-1.6.2 pystache-0.6.8 mido-1.3.3 polib-1.2.0 skyfield-1.55 macholib-1.16.4"
        " bandit-1.9.4 dpath-2.2.0 exifread-3.5.1 num2words-0.5.14 eventlet-0.41.3 rpyc-6.0.2"
        " pyro5-5.17 scrapy-2.19.0 pyhamcrest-2.1.0 behave-1.3.3 doit-0.37.0 hyperlink-21.0.0"
        " pymodbus-3.16.1 pydub-0.25.1 pyfribidi-0.12.0 soxr-1.1.0 ecos-2.0.14 scs-3.3.1"
        " uamqp-1.6.11 nmslib-2.1.2 pyopenjtalk-0.4.1 youtokentome-1.0.6",
        "NPM_PKGS": "numeral@2.0.6 jsbarcode@3.12.3 natural@8.2.6 mousetrap@1.6.5"
        " @scure/base@2.4.0 @scure/btc-signer@2.4.1 react-native-redash@18.1.5"
        " cordova-plugin-purchase@13.18.0 react-native-ficus-ui@1.3.3 @tamagui/sheet@3.3.3"
        " @tamagui/select@3.3.3 @gorhom/portal@1.0.14 react-native-mask-input@1.2.3"
        " react-native-country-codes-picker@2.3.5 react-native-google-cast@4.9.1"
        " react-native-google-fit@0.22.1 react-native-pjsip@2.7.4"
        " react-native-android-wifi@0.0.41 react-native-hce@0.3.0 react-native-blurhash@2.1.3"
        " @mauron85/cordova-plugin-background-geolocation@3.1.0"
        " cordova-plugin-crosswalk-webview@2.4.0 cordova-plugin-bluetooth-serial@0.4.7",
        "DEBS": "golang-github-pbnjay-memory-dev=0.0~git20210728.7b4eea6-2"
        " golang-github-alexcesaro-log-dev=0.0~git20150915.61e6862-3"
        " golang-github-mdlayher-raw-dev=0.1.0-1"
        " golang-github-petermattis-goid-dev=0.0~git20180202.b0b1615-3"
        " golang-github-abbot-go-http-auth-dev=0.4.0-5"
        " golang-github-emersion-go-sasl-dev=0.0~git20191210.430746e-3"
        " golang-github-marstr-collection-dev=0.3.3+git20171004.e631537-1.1"
        " golang-gopkg-vmihailenco-msgpack.v2-dev=4.3.1-2 golang-github-mholt-acmez-dev=0.1.3-2"
        " golang-modernc-internal-dev=1.0.0-2 librust-rand-xoshiro-dev=0.6.0-2"
        " librust-async-channel-dev=1.8.0-3 librust-multihash-dev=0.11.4-2"
        " librust-oxiri-dev=0.2.2-4 librust-ref-cast-impl-dev=1.0.3-1+b2"
        " librust-ansi-to-tui-dev=2.0.0-1+b1 librust-effective-limits-dev=0.5.5-3"
        " librust-num-iter-dev=0.1.42-1 librust-paste-dev=1.0.7-1"
        " librust-wildmatch-dev=2.1.1-1+b1 libfoonathan-memory-dev=0.7.2-3"
        " libsecrecy-dev=0.0.5+ds-2+b1",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_Y.split()],
        "C_GLOBS": [
            "pypi/pyfribidi*/fribidi-src/lib/*.[ch]",
            "pypi/pyfribidi*/fribidi-src/charset/*.[ch]",
            "pypi/soxr*/libsoxr/src/*.[ch]",
            # (ecos' and scs' own files, not the SuiteSparse AMD and LDL they bundle)
            "pypi/ecos*/ecos/src/*.[ch]",
            "pypi/ecos*/ecos/include/*.h",
            "pypi/scs*/scs_source/src/**/*.[ch]",
            "pypi/scs*/scs_source/include/*.h",
            "pypi/scs*/scs_source/linsys/*.[ch]",
            "pypi/scs*/scs_source/linsys/cpu/**/*.[ch]",
            f"{_UAMQP}/src/*.c",
            f"{_UAMQP}/inc/azure_uamqp_c/*.h",
            f"{_UAMQP}/deps/azure-c-shared-utility/src/*.c",
        ],
        "CPP_GLOBS": [
            "pypi/nmslib*/similarity_search/src/**/*.cc",
            "pypi/nmslib*/similarity_search/include/**/*.h",
            "pypi/pyopenjtalk*/lib/open_jtalk/src/mecab/src/*.cpp",
            "pypi/pyopenjtalk*/lib/open_jtalk/src/mecab/src/*.h",
            "pypi/youtokentome*/youtokentome/cpp/*.cpp",
            "pypi/youtokentome*/youtokentome/cpp/*.h",
            f"{INC}/foonathan_memory/**/*.hpp",
            f"{INC}/libsecrecy/*.hpp",
        ],
    },
    "z": {
        "PYPI": "jeepney-0.9.0 antlr4_python3_runtime-4.13.2 traitlets-5.16.1 joserfc-1.8.0"
        " executing-2.3.0 pg8000-1.31.6 fakeredis-2.40.0 olefile-0.47 pyphen-0.18.1"
        " supervisor-4.3.0 avro-1.12.2 geographiclib-2.1 webcolors-25.10.0 patsy-1.0.3"
        " cron_descriptor-2.2.1 python_gnupg-0.5.7 yamllint-1.38.0 tifffile-2026.11.8"
        " grpclib-0.4.9 unidiff-1.0.1 isal-1.9.1 igraph-1.0.0 pybigwig-0.3.29 quadprog-0.1.14"
        " pykdtree-1.4.3 opencc-1.4.2 fastcluster-1.3.0 leidenalg-0.12.0",
        "NPM_PKGS": "chance@1.1.13 raphael@2.3.0 xml2js@0.6.2 flexsearch@0.8.212"
        " @internationalized/date@3.12.4 ethers@6.17.0 react-native-network-logger@3.0.0"
        " react-native-zoom-toolkit@5.1.1 sonner-native@0.27.0 zeego@3.0.6"
        " react-native-ios-context-menu@3.2.1 react-native-paper-tabs@0.11.4"
        " react-native-awesome-slider@2.9.0 react-native-enriched@0.8.1"
        " react-native-kontaktio@4.1.0 react-native-jw-media-player@0.2.46"
        " react-native-agora@4.6.4 react-native-persona@2.54.0 react-native-performance@7.0.0"
        " react-native-flipper@0.273.0 reanimated-color-picker@5.1.3"
        " react-native-paper-dropdown@2.3.1 cordova-plugin-health@3.2.4"
        " cordova-plugin-code-push@2.0.0 cordova-plugin-music-controls2@3.0.7",
        "DEBS": "golang-github-lucas-clemente-quic-go-dev=0.29.0-1"
        " golang-github-opentracing-contrib-go-grpc-dev=0.0~git20210225.73cb765-3"
        " golang-gopkg-cheggaaa-pb.v1-dev=1.0.25-1 golang-github-masterminds-vcs-dev=1.12.0-4"
        " golang-github-moby-sys-dev=0.0~git20220606.416188a-1"
        " golang-github-pmylund-go-cache-dev=0.0~git20150304-2"
        " golang-github-dop251-goja-dev=0.0~git20170430.0.d382686-2"
        " golang-github-docker-go-dev=0.0~git20160303.0.d30aec9-3.1"
        " golang-gopkg-sourcemap.v1-dev=1.0.5+git20170213.0.6e83ace-1"
        " golang-github-mozillazg-go-httpheader-dev=0.3.1-2"
        " librust-ntest-test-cases-dev=0.8.0-1+b1 librust-quote-dev=1.0.21-1"
        " librust-unwrap-dev=1.2.1-2 librust-onig-dev=6.3.2-1"
        " librust-ntest-proc-macro-helper-dev=0.8.0-1+b1 librust-pkg-config-dev=0.3.25-2"
        " librust-rfc822-sanitizer-dev=0.3.3-2 librust-digest-dev=0.10.5-2"
        " librust-deunicode-dev=1.3.1-1+b1 librust-pledge-dev=0.3.1-1+b1"
        " librust-osmesa-sys-dev=0.1.2-1+b1 librust-scheduled-thread-pool-dev=0.2.6-1+b1"
        " librust-vm-memory-dev=0.10.0-3 etl-dev=1.5.1-1 libcds-dev=2.3.3-2",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_Z.split()],
        "C_GLOBS": [
            "pypi/isal*/src/isal/*.[ch]",
            *(f"{_ISAL}/{d}/*.[ch]" for d in ("igzip", "erasure_code", "crc", "raid", "mem")),
            f"{_ISAL}/include/*.h",
            "pypi/igraph*/src/_igraph/*.[ch]",
            f"{_IGRAPH}/src/*.c",
            f"{_IGRAPH}/src/*/*.c",
            f"{_IGRAPH}/include/*.h",
            "pypi/pybigwig*/*.[ch]",
            "pypi/pybigwig*/libBigWig/*.[ch]",
            "pypi/quadprog*/quadprog/*.c",
            "pypi/pykdtree*/pykdtree/_kdtree_core.c",
        ],
        "CPP_GLOBS": [
            "pypi/opencc*/src/*.cpp",
            "pypi/opencc*/src/*.hpp",
            "pypi/fastcluster*/src/*.cpp",
            "pypi/leidenalg*/src/leidenalg/*.cpp",
            "pypi/leidenalg*/include/*.h",
            f"{INC}/cds/**/*.h",
            f"{INC}/ETL/ETL/_*.h",
        ],
    },
    "aa": {
        "PYPI": "cssselect-1.6.0 python_can-4.6.1 bleak-3.1.0 furl-2.1.4 dictdiffer-0.10.0"
        " hjson-3.1.0 pyaes-1.6.1 pyvisa-1.16.2 nbformat-5.11.1 astor-0.8.1 hvac-2.4.0"
        " multimethod-2.1 mimesis-22.2.0 pdfrw-0.4 xlwt-1.3.0 textfsm-2.1.0 ncclient-0.7.1"
        " pydicom-3.0.2 html2text-2025.4.15 geojson-3.3.0 pyerfa-2.0.1.5 ephem-4.2.1"
        " pyswisseph-2.10.3.2 simsimd-6.5.16 pywavelets-1.10.0 sgp4-2.27 python_sat-1.9.dev24"
        " manifold3d-3.5.4 clickhouse_cityhash-1.0.2.6 pyvoro-1.3.2",
        "NPM_PKGS": "cytoscape@3.35.0 sax@1.6.1 micromatch@4.0.8 chokidar@3.6.0 hls.js@1.7.4"
        " @grpc/grpc-js@1.14.7 @msgpack/msgpack@3.1.3 react-native-sticky-parallax-header@1.1.1"
        " @react-google-maps/api@2.20.8 react-native-hold-menu@0.1.6"
        " react-native-reorderable-list@0.18.1 react-native-teleport@1.2.2 expo-video@58.0.1"
        " react-native-reanimated-table@0.0.2 @backpackapp-io/react-native-toast@0.15.1"
        " react-native-photo-editor@1.0.13 jail-monkey@3.0.0 react-native-simple-crypto@0.2.15"
        " @supersami/rn-foreground-service@2.2.5 react-native-location@2.5.0"
        " react-native-activity-recognition@3.2.0 cordova-hot-code-push-plugin@1.5.3"
        " cordova-plugin-ionic-webview@5.0.1 cordova-plugin-secure-storage-echo@5.1.1",
        "DEBS": "golang-github-mcuadros-go-lookup-dev=0.0~git20171110.5650f26-3"
        " golang-github-goburrow-modbus-dev=0.1.0-3 golang-github-spf13-fsync-dev=0.9.0-2"
        " golang-github-nebulouslabs-demotemutex-dev=0.0~git20151003.0.235395f-1.1"
        " golang-github-svanharmelen-jsonapi-dev=1.0.0+git20180618.0c0828c-4"
        " golang-github-influxdata-influxdb1-client-dev=0.0~git20220302.a9ab567-2"
        " golang-github-creack-pty-dev=1.1.18-1 golang-github-jeffail-gabs-dev=2.3.0-1"
        " golang-gir-gio-2.0-dev=2.2.0-1 golang-github-jaypipes-pcidb-dev=1.0.0-1"
        " librust-ouroboros-macro-dev=0.15.3-1 librust-futures-core-dev=0.3.21-1"
        " librust-crates-io-dev=0.34.0-2 librust-libsystemd-dev=0.2.1-5"
        " librust-alloc-no-stdlib-dev=2.0.4-1 librust-libc-print-dev=0.1.20-1"
        " librust-fwdansi-dev=1.1.0-1+b1 librust-sha-1-0.9-dev=0.9.8-1+b1"
        " librust-numtoa-dev=0.2.3-1 librust-rustfix-dev=0.6.0-1+b1"
        " librust-environment-dev=0.1.1-1+b1 librust-skeptic-dev=0.13.7-2"
        " librust-criterion-plot-dev=0.4.5-1",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_AA.split()],
        "C_GLOBS": [
            "pypi/pyerfa*/liberfa/erfa/src/*.[ch]",
            "pypi/ephem*/libastro/*.[ch]",
            "pypi/ephem*/extensions/_libastro.c",
            "pypi/pyswisseph*/*.c",
            "pypi/pyswisseph*/libswe/*.[ch]",
            "pypi/pyswisseph*/swephelp/*.[ch]",
            "pypi/simsimd*/include/simsimd/*.h",
            "pypi/simsimd*/c/*.c",
            "pypi/simsimd*/python/*.c",
            "pypi/pywavelets*/pywt/_extensions/c/*.[ch]",
        ],
        "CPP_GLOBS": [
            "pypi/sgp4*/extension/*.cpp",
            "pypi/sgp4*/extension/*.h",
            "pypi/python_sat*/cardenc/*.[ch]*",
            "pypi/python_sat*/formula/*.[ch]*",
            "pypi/manifold3d*/src/*.cpp",
            "pypi/manifold3d*/src/*.h",
            "pypi/manifold3d*/src/cross_section/*.cpp",
            "pypi/manifold3d*/include/manifold/*.h",
            "pypi/manifold3d*/bindings/python/*.cpp",
            "pypi/clickhouse_cityhash*/src/city.cc",
            "pypi/clickhouse_cityhash*/include/*.h",
            "pypi/pyvoro*/src/*.cc",
            "pypi/pyvoro*/src/*.hh",
            "pypi/pyvoro*/pyvoro/vpp.*",
        ],
    },
    "ab": {
        "PYPI": "chess-1.11.2 intelhex-2.3.0 tinytag-2.3.2 pyquery-2.1.0 cssutils-2.15.0"
        " bibtexparser-2.1.0 pyshp-3.1.9 pyusb-1.3.1 Arpeggio-2.0.3 vobject-0.9.9"
        " pypng-0.20220715.0 pymap3d-3.2.0 jplephem-2.24 python-xlib-0.33 jwcrypto-1.6.1"
        " python_pptx-1.0.2 pyftpdlib-2.2.0 pykka-4.5.0 cheroot-11.1.2 caldav-3.6.0"
        " hidapi-0.15.0 pynauty-2.8.8.1 html5_parser-0.5.0 rpi_ws281x-5.0.0 novas-3.1.1.6"
        " metrohash-0.4.1 meshpy-2026.1.1 uharfbuzz-0.57.0 pythran-0.19.0 ripser-0.6.15",
        "NPM_PKGS": "css-tree@3.2.1 ohm-js@17.5.0 nearley@2.20.1 remarkable@2.0.1"
        " pg-protocol@1.16.1 bson@7.3.4 @codeherence/react-native-header@1.0.1"
        " react-native-country-select@0.4.0 react-native-screen-transitions@3.13.0"
        " @portabletext/react-native@3.0.0 @kolking/react-native-avatar@2.1.6"
        " react-native-draggable-grid@2.2.2 react-native-applovin-max@9.6.0"
        " react-native-secure-key-store@2.0.10 react-native-get-location@6.0.1"
        " react-native-branch@7.0.0 react-native-radar@4.36.0 react-native-text-size@3.0.0"
        " react-native-file-logger@0.7.3 react-native-screenshot-prevent@1.2.2"
        " react-native-action-sheet@2.2.0 react-native-adjust@5.8.0"
        " react-native-create-thumbnail@2.2.0 cordova-plugin-nativestorage@2.3.2"
        " cordova-plugin-file-opener2@4.0.0 cordova-plugin-actionsheet@2.3.3",
        "DEBS": "golang-github-go-openapi-spec-dev=1:0.20.4-2"
        " golang-github-google-wire-dev=0.5.0-2 golang-github-tmc-scp-dev=0.0+20170825-2"
        " golang-github-tklauser-go-sysconf-dev=0.3.9-2 golang-guestfs-dev=1:1.48.6-2"
        " golang-github-docker-libkv-dev=0.2.1-3 golang-github-sourcegraph-jsonrpc2-dev=0.1.0-3"
        " golang-github-gabriel-vasile-mimetype-dev=1.4.1+dfsg1-2"
        " golang-github-tchap-go-patricia-dev=2.3.1-1"
        " golang-github-cryptix-wav-dev=0.0~git20180415.8bdace6-2"
        " librust-foreign-types-shared-0.1-dev=0.1.1-1+b2 librust-sval-derive-dev=1.0.0~alpha.5-2"
        " librust-webpki-dev=0.22.0-1 librust-stable-deref-trait-dev=1.2.0-1"
        " librust-env-logger-dev=0.9.3-1 librust-tree-sitter-dev=0.20.9-2"
        " librust-digest-0.9-dev=0.9.0-3 librust-constant-time-eq-dev=0.1.5-1"
        " librust-enum-map-derive-dev=0.10.0-1 librust-glib-dev=0.14.8-1",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_AB.split()],
        "C_GLOBS": [
            "pypi/hidapi*/hidapi/**/*.[ch]",
            "pypi/pynauty*/src/**/*.[ch]",
            "pypi/html5_parser*/gumbo/*.[ch]",
            "pypi/html5_parser*/src/*.[ch]",
            "pypi/rpi_ws281x*/lib/*.[ch]",
            "pypi/novas*/Cdist/*.[ch]",
        ],
        "CPP_GLOBS": [
            "pypi/metrohash*/src/metrohash*.cc",
            "pypi/metrohash*/src/*.h",
            "pypi/meshpy*/src/cpp/*.[ch]*",
            "pypi/uharfbuzz*/harfbuzz/src/**/*.cc",
            "pypi/uharfbuzz*/harfbuzz/src/**/*.hh",
            "pypi/uharfbuzz*/harfbuzz/src/*.h",
            "pypi/pythran*/pythran/pythonic/**/*.hpp",
            "pypi/ripser*/src/ripser/ripser.cpp",
        ],
    },
    "ac": {
        "PYPI": "graphviz-0.21 filetype-1.2.0 PySocks-1.7.1 semantic_version-2.10.0 aenum-3.1.17"
        " ordered_set-4.1.0 coloredlogs-15.0.1 bracex-3.2.2 graphene-3.4.3 isoduration-20.11.0"
        " uri_template-1.3.0 pandocfilters-1.5.1 smmap-5.0.3 execnet-2.1.2 distlib-0.4.4"
        " keyring-25.7.0 mashumaro-3.23 cachecontrol-0.14.4 stack_data-0.6.3 secretstorage-3.5.0"
        " pymongo-4.20.0 numba-0.68.1 ssh2_python-1.2.0.post1 ssh_python-1.2.0.post1"
        " dtaidistance-2.5.1 thrift-0.25.0 ml_dtypes-0.6.0 matplotlib-3.11.2 lightgbm-4.7.0"
        " scikit_learn-1.9.1",
        "NPM_PKGS": "iconv-lite@0.7.3 enhanced-resolve@5.27.0 whatwg-url@17.3.0 doctrine@3.0.0"
        " @jridgewell/trace-mapping@0.3.31 domutils@4.0.2 @quidone/react-native-wheel-picker@1.7.1"
        " react-native-marked@8.3.1 react-native-notifier@2.0.0"
        " react-native-reanimated-skeleton@1.6.0 react-native-css@3.0.7"
        " react-native-fast-confetti@2.0.2 react-native-flex-grid@1.0.6"
        " @wuba/react-native-echarts@3.0.1 react-native-a11y-order@2.0.0"
        " react-native-pdf-renderer@2.3.0 react-native-ux-cam@6.0.17"
        " react-native-external-keyboard@0.6.10 @adobe/react-native-aepcore@7.0.0"
        " react-native-mmkv-storage@12.0.1 react-native-background-geolocation@5.7.0"
        " react-native-spinkit@1.5.1 react-native-securerandom@1.0.1"
        " react-native-add-calendar-event@5.0.0 react-native-aes-crypto@3.3.0"
        " react-native-sha256@1.4.10 cordova-plugin-bluetoothle@6.7.4 cordova-plugin-badge@0.8.9"
        " cordova-plugin-x-toast@2.7.3",
        "DEBS": "golang-github-charmbracelet-lipgloss-dev=0.5.0-1"
        " golang-github-sasha-s-go-deadlock-dev=0.3.1-1"
        " golang-github-virtuald-go-ordered-json-dev=0.0~git20170621.b18e6e6-2"
        " golang-golang-x-net-dev=1:0.7.0+dfsg-1 golang-github-src-d-gcfg-dev=1.4.0-3"
        " golang-github-networkplumbing-go-nft-dev=0.2.0-2"
        " golang-github-go-errors-errors-dev=1.0.1-4 golang-github-gogo-status-dev=1.1.0-3"
        " golang-github-yuin-goldmark-emoji-dev=1.0.1-2"
        " golang-github-go-openapi-inflect-dev=0.19.0-3 librust-aliasable-dev=0.1.3-3"
        " librust-size-format-dev=1.0.2-1+b1 librust-boxfnonce-dev=0.1.1-2"
        " librust-concolor-dev=0.0.11-1 librust-rustls-pemfile-dev=1.0.0-1+b1"
        " librust-asn1-derive-dev=0.12.2-1 librust-bzip2-dev=0.4.4-1 librust-gdk4-x11-dev=0.3.1-2"
        " librust-linkify-dev=0.9.0-1 librust-matches-dev=0.1.8-1 librust-rtnetlink-dev=0.10.1-5",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_AC.split()],
        "C_GLOBS": [
            "pypi/pymongo*/bson/*.[ch]",
            "pypi/pymongo*/pymongo/*.c",
            "pypi/numba*/numba/*.[ch]",
            "pypi/numba*/numba/cext/*.[ch]",
            "pypi/numba*/numba/core/runtime/*.[ch]",
            "pypi/numba*/numba/np/ufunc/*.[ch]",
            "pypi/ssh2_python*/libssh2/src/*.[ch]",
            "pypi/ssh2_python*/libssh2/include/*.h",
            "pypi/ssh_python*/libssh/src/*.[ch]",
            "pypi/ssh_python*/libssh/include/libssh/*.h",
            "pypi/dtaidistance*/src/DTAIDistanceC/DTAIDistanceC/*.[ch]",
        ],
        "CPP_GLOBS": [
            "pypi/thrift*/src/ext/*.[ch]*",
            "pypi/ml_dtypes*/ml_dtypes/_src/*.[ch]*",
            "pypi/ml_dtypes*/ml_dtypes/include/*.h",
            "pypi/ml_dtypes*/ml_dtypes/tests/*.cc",
            "pypi/matplotlib*/src/**/*.cpp",
            "pypi/matplotlib*/src/**/*.h",
            "pypi/scikit_learn*/sklearn/svm/src/*/*.cpp",
            "pypi/scikit_learn*/sklearn/svm/src/*/*.h",
            "pypi/scikit_learn*/sklearn/utils/src/MurmurHash3.*",
            "pypi/lightgbm*/src/*/*.[ch]pp",
            "pypi/lightgbm*/include/LightGBM/*.h",
        ],
    },
    "ad": {
        "PYPI": "sly-0.5 parsy-2.2 pyhocon-0.3.63 configargparse-1.9.0 python_box-8.0.0 munch-4.0.0"
        " dogpile_cache-1.5.0 aniso8601-10.0.1 ics-0.7.3 parsel-1.12.1 tatsu-5.15.1 cachelib-0.17.0"
        " schematics-2.1.1 colander-2.0 trafaret-2.1.1 jsonmerge-1.9.2 dataclasses_json-0.6.7"
        " automat-25.4.16 PyDispatcher-2.0.7 convertdate-2.5.1 yara_python-4.5.4 distorm3-3.5.2"
        " python_lzf-0.2.6 pyedflib-0.1.42 pyreadr-0.5.8 sep-1.4.1 numcodecs-0.16.6 pyfastx-2.3.1"
        " pyjess-0.10.1 pyrodigal-3.7.1 bitshuffle-0.5.2 python-tlsh-4.5.0 jsonslicer-0.1.8"
        " glcontext-3.1.0 moderngl-5.13.0 edlib-1.3.9.post1 mgrs-1.6.0 pyglm-2.8.3",
        "NPM_PKGS": "chroma-js@3.3.0 ejs@7.0.2 avsc@5.7.9 kefir@3.8.8 busboy@1.6.0 ml-matrix@6.15.1"
        " @kingstinct/react-native-healthkit@16.0.0 react-native-image-marker@2.1.1"
        " react-native-magnus@1.0.63 react-native-ios-utilities@5.2.0"
        " react-native-spotlight-tour@4.0.0 react-native-notificated@0.1.7"
        " react-native-currency-input@1.1.1 react-native-progress-steps@2.0.3"
        " react-native-paper-select@1.5.0 react-native-gesture-image-viewer@3.1.0"
        " @expensify/react-native-live-markdown@0.1.341 react-native-esc-pos-printer@4.5.0"
        " react-native-receive-sharing-intent@2.0.0 react-native-usb-serialport-for-android@0.5.0"
        " react-native-http-bridge@0.6.1 react-native-static-server@0.5.0"
        " react-native-startup-time@2.1.0 react-native-color-matrix-image-filters@8.0.2"
        " react-native-context-menu-view@1.21.0 react-native-key-command@1.0.15"
        " react-native-sound-level@1.4.0 react-native-screen-brightness@1.0.1"
        " react-native-default-preference@1.4.4 cordova-plugin-nativeaudio@3.0.9"
        " cordova-plugin-audioinput@2.2.1 cordova-plugin-nativegeocoder@3.5.1",
        "DEBS": "golang-github-expediadotcom-haystack-client-go-dev=0.2.3-2"
        " golang-gir-gobject-2.0-dev=2.2.0-1"
        " golang-github-nebulouslabs-errors-dev=0.0~git20170430.98e1f05-1.1"
        " golang-github-zyedidia-clipboard-dev=1.0.3-1"
        " golang-github-anacrolix-tagflag-dev=0.0.0-20180109-2146c8d-4"
        " golang-github-daaku-go.zipexe-dev=1.0.1-2"
        " golang-github-git-lfs-git-lfs-dev=3.3.0-1+deb12u2"
        " golang-github-adam-lavrik-go-imath-dev=0.0~git20210910.265a42a-2"
        " golang-github-aryann-difflib-dev=0.0~git20210328.ff5ff6d-4"
        " golang-pault-go-config-dev=0.1-3"
        " librust-os-pipe-dev=1.1.1-1 librust-winit-dev=0.27.5-2 librust-lazy-regex-dev=2.4.1-2"
        " librust-ntapi-dev=0.4.0-1 librust-resolv-conf-dev=0.7.0-1+b1"
        " librust-hashlink-dev=0.8.0-1+b1 librust-tera-dev=1.17.1-1 librust-simplecss-dev=0.2.0-1"
        " librust-oauth2-dev=4.3.0-1+b1 librust-memoffset-dev=0.6.5-1",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_AD.split()],
        "C_GLOBS": [
            "pypi/yara_python*/yara/libyara/modules/*/*.[ch]",
            "pypi/distorm3*/src/*.[ch]",
            "pypi/distorm3*/include/*.h",
            "pypi/python_lzf*/*.[ch]",
            "pypi/pyedflib*/pyedflib/_extensions/c/*.[ch]",
            "pypi/pyreadr*/pyreadr/libs/librdata/src/*.[ch]",
            "pypi/sep*/src/*.[ch]",
            "pypi/numcodecs*/c-blosc/blosc/*.[ch]",
            "pypi/pyfastx*/src/*.[ch]",
            "pypi/pyjess*/vendor/jess/src/*.[ch]",
            "pypi/pyrodigal*/vendor/Prodigal/*.[ch]",
            "pypi/pyrodigal*/src/pyrodigal/*.h",
            "pypi/bitshuffle*/src/*.[ch]",
        ],
        "CPP_GLOBS": [
            "pypi/python-tlsh*/src/*.cpp",
            "pypi/python-tlsh*/include/*.h",
            "pypi/python-tlsh*/tlshmodule.cpp",
            "pypi/jsonslicer*/src/*.[ch][ch]",
            "pypi/glcontext*/glcontext/*.cpp",
            "pypi/moderngl*/src/*.[ch]pp",
            "pypi/edlib*/edlib/src/*.cpp",
            "pypi/edlib*/edlib/include/*.h",
            "pypi/mgrs*/libmgrs/**/*.cpp",
            "pypi/mgrs*/libmgrs/geotrans3.10/**/*.h",
            "pypi/mgrs*/src/*.cpp",
            "pypi/pyglm*/PyGLM_lib/PyGLM/functions/**/*.[ch]*",
        ],
    },
    "ae": {
        "PYPI": "sh-2.4.0 pybtex-0.26.1 genshi-0.7.12 kafka_python-3.0.12 eliot-1.18.0"
        " funcparserlib-1.0.1 rply-0.7.8 asn1tools-0.169.0 dicttoxml-1.7.16 chevron-0.14.0"
        " logbook-1.10.1 pymemcache-4.0.0 python-memcached-1.62 neo4j-6.4.1 josepy-2.2.0"
        " pyinotify-0.9.6 pyudev-0.24.5 pyxdg-0.28 webtest-3.0.7 restrictedpython-9.0"
        " aubio-0.4.9 pyinstaller-6.22.3 xmlsec-1.3.17 mercurial-7.2.4 confluent_kafka-2.16.2"
        " pyicu-2.17 pyfamsa-0.7.0 pytrimal-0.8.5 pot-0.9.7.post1 pyspoa-0.3.2",
        "NPM_PKGS": "mnemonist@0.40.8 parsimmon@1.18.1 gl-matrix@3.4.4 simple-statistics@7.12.1"
        " lokijs@1.5.12 nedb@1.8.0 react-native-audio-api@0.13.6"
        " @sendbird/uikit-react-native-foundation@3.12.9"
        " expo-blur@58.0.6 expo-camera@58.0.10 expo-checkbox@57.0.0 react-native-bottom-tabs@1.4.0"
        " @react-native-assets/slider@11.0.12 react-native-awesome-gallery@0.4.3"
        " react-native-qr-svg@1.5.0 react-native-uitextview@2.7.1"
        " @futurejj/react-native-visibility-sensor@1.4.4 @rudderstack/rudder-sdk-react-native@3.1.1"
        " clevertap-react-native@4.2.0 @adobe/react-native-aepedge@7.0.0"
        " @iterable/react-native-sdk@2.2.1 newrelic-react-native-agent@1.8.8"
        " singular-react-native@4.3.1 react-native-shared-preferences@1.0.2"
        " react-native-network-info@5.2.2 react-native-dialogs@1.1.2"
        " cordova-plugin-telerik-imagepicker@2.3.6 cordova-plugin-android-fingerprint-auth@1.5.0"
        " cordova-plugin-wifiwizard2@3.1.1",
        "DEBS": "golang-github-shurcool-graphql-dev=0.0~git20220606.3cf50f8-1"
        " golang-github-smallstep-truststore-dev=0.12.1-1"
        " golang-github-sanity-io-litter-dev=1.5.5-1 golang-gopkg-gorp.v1-dev=1.7.2-2"
        " golang-gopkg-alexcesaro-quotedprintable.v3-dev=0.0~git20150716.0.2caba25-7"
        " golang-github-grpc-ecosystem-grpc-gateway-dev=1.6.4-2 golang-github-coreos-pkg-dev=4-3"
        " golang-github-eiannone-keyboard-dev=0.0~git20220611.0d22619-2"
        " golang-github-docker-go-metrics-dev=0.0.1-2 golang-github-appleboy-gin-jwt-dev=2.6.4-2"
        " librust-os-display-dev=0.1.3-3 librust-protobuf-dev=2.27.1-1"
        " librust-ipnetwork-dev=0.17.0-1 librust-shadow-rs-dev=0.20.0-2"
        " librust-scale-info-derive-dev=2.3.1-1 librust-wasm-bindgen-macro-support-dev=0.2.83-1"
        " librust-ghost-dev=0.1.5-1+b1 librust-gobject-sys-dev=0.14.0-2 librust-snafu-dev=0.7.1-1"
        " librust-getset-dev=0.1.2-1+b1",
        "PY_GLOBS": [f"pypi/{p}*/**/*.py" for p in _PY_AE.split()],
        "C_GLOBS": [
            "pypi/aubio*/src/**/*.[ch]",
            "pypi/aubio*/python/ext/*.[ch]",
            "pypi/pyinstaller*/bootloader/src/*.[ch]",
            "pypi/xmlsec*/src/*.[ch]",
            "pypi/mercurial*/mercurial/*.[ch]",
            "pypi/mercurial*/mercurial/cext/*.[ch]",
            "pypi/mercurial*/mercurial/thirdparty/xdiff/*.[ch]",
            "pypi/confluent_kafka*/src/confluent_kafka/src/*.[ch]",
        ],
        "CPP_GLOBS": [
            "pypi/pyicu*/*.cpp",
            "pypi/pyicu*/*.h",
            "pypi/pyfamsa*/vendor/FAMSA/src/**/*.[ch]pp",
            "pypi/pyfamsa*/vendor/FAMSA/src/**/*.h",
            "pypi/pytrimal*/vendor/trimal/source/**/*.cpp",
            "pypi/pytrimal*/vendor/trimal/include/**/*.h",
            "pypi/pot*/ot/lp/*.h",
            "pypi/pot*/ot/lp/EMD_wrapper.cpp",
            "pypi/pyspoa*/pyspoa.cpp",
            "pypi/pyspoa*/src/src/*.[ch]pp",
            "pypi/pyspoa*/src/include/spoa/*.hpp",
        ],
    },
}
# the languages a set has sources of, where not all of code_fresh's
LANGS = {"b": "python,javascript,typescript,tsx,go,rust,java"}


def use(name: str) -> None:
    """Point code_fresh at set ``name``: its packages, cache folder and results file."""
    stem = "more" if name == "a" else f"more_{name}"
    fresh.RESULTS = fresh.ROOT / "benchmarks" / "results" / f"code_{stem}.json"
    fresh.CACHE = user_cache_dir() / "bench" / stem
    fresh.P, fresh.N, fresh.R = fresh.CACHE / "pypi", fresh.CACHE / "npm", fresh.CACHE / "root"
    for key, value in SETS[name].items():
        setattr(fresh, key, re.findall(r"\S+", value) if isinstance(value, str) else value)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("--set", choices=sorted(SETS), default="a")
    known, rest = ap.parse_known_args()
    use(known.set)
    if known.set in LANGS and not any(a.startswith("--langs") for a in rest):
        rest += ["--langs", LANGS[known.set]]
    sys.argv = [sys.argv[0], *rest]
    fresh.main()
