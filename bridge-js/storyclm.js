/*!
 * storyclm.js for sclm — the StoryCLM content bridge library, API-compatible with storyclm.js 2.2.
 *
 * One file, no dependencies. Load it in a slide with <script src="js/storyclm.js"></script> (globals
 * StoryCLM and StoryCLMBridge), or require()/import it in Node, where connect() runs `sclm bridge`.
 *
 * Every call sends {"Command", "Data", "GUID"} to the host and hands the answer to its callback as a
 * StoryCLMApiMessage {status, errorCode, errorMessage, data}. Without a callback a call returns a Promise
 * that resolves with that message (2xx) or rejects with a StoryCLMError carrying it. Errors made on this
 * side use negative codes: -1 no answer in time, -2 empty answer, -3 bad parameters, -4 the transport
 * closed or could not start.
 *
 * Transports, chosen automatically in a page: window.webkit.messageHandlers.storyclm when present; the
 * sclm preview relay (a WebSocket to <origin>/.sclm/bridge) when the page is served over http(s) and the
 * relay answers; otherwise StoryCLM's legacy queue (a hidden iframe navigates to storyclm:SCLM_QUEUE, the
 * app calls StoryCLMBridge.GetQueue() and answers through StoryCLMBridge.StoryCLMHandler(json)).
 * window.StoryCLMConfig = {transport: "queue" | "webkit" | "relay", relayUrl, timeout, timeouts} set
 * before this script overrides the choice and the time limits.
 */
(function (root, factory) {
  "use strict";
  var library = factory(root);
  if (typeof module === "object" && module && module.exports) {
    // Named so that Node's ESM loader sees them: import { connect } from "./storyclm.js".
    var connect = library.connect, createClient = library.createClient, createPageClient = library.createPageClient;
    var StoryCLMApiMessage = library.StoryCLMApiMessage, StoryCLMError = library.StoryCLMError;
    var ErrorCodes = library.ErrorCodes, encodeBody = library.encodeBody, decodeBody = library.decodeBody;
    var transports = library.transports, version = library.version, TablesQuery = library.TablesQuery;
    module.exports = {
      connect: connect, createClient: createClient, createPageClient: createPageClient,
      StoryCLMApiMessage: StoryCLMApiMessage, StoryCLMError: StoryCLMError, ErrorCodes: ErrorCodes,
      encodeBody: encodeBody, decodeBody: decodeBody, transports: transports, version: version,
      TablesQuery: TablesQuery
    };
  }
  if (root && root.document && typeof root.document.createElement === "function") {
    var client = library.createPageClient(root);
    root.StoryCLM = client;
    root.StoryCLMBridge = client.Bridge;
    root.TablesQuery = library.TablesQuery;
  }
}(typeof globalThis !== "undefined" ? globalThis : this, function (root) {
  "use strict";

  var VERSION = "2.2.0-sclm.1";
  /** Milliseconds a call waits for its answer before its callback gets errorCode -1. */
  var DEFAULT_TIMEOUT = 35000;
  /** Commands answered when a person closes a viewer: no client-side limit (0) unless configured. */
  var DEFAULT_COMMAND_TIMEOUTS = { openMediaFile: 0, openMediaLibrary: 0 };
  /** Client-side error codes (StoryCLM's own are -2 and -3). */
  var ErrorCodes = { TIMEOUT: -1, EMPTY: -2, PARAMETERS: -3, TRANSPORT: -4 };
  var QUEUE_URL = "storyclm:SCLM_QUEUE";
  var RELAY_PATH = "/.sclm/bridge";
  var WEBKIT_HANDLER = "storyclm";

  // ---- Messages -------------------------------------------------------------------------------------

  /** The value of `key` in `object`, matching the key case-insensitively (hosts differ in case). */
  function field(object, key) {
    if (Object.prototype.hasOwnProperty.call(object, key)) { return object[key]; }
    var lower = key.toLowerCase();
    for (var name in object) {
      if (Object.prototype.hasOwnProperty.call(object, name) && name.toLowerCase() === lower) { return object[name]; }
    }
    return undefined;
  }

  /**
   * A host's answer as storyclm.js hands it to callbacks: {status, errorCode, errorMessage, data}.
   * An empty answer becomes errorCode -2 "Data is empty", as in storyclm.js.
   */
  function StoryCLMApiMessage(message) {
    if (message === null || message === undefined || message === "" || typeof message !== "object") {
      this.status = "Failure";
      this.errorCode = ErrorCodes.EMPTY;
      this.errorMessage = "Data is empty";
      this.data = null;
      return;
    }
    var code = field(message, "ErrorCode");
    this.status = field(message, "Status");
    this.errorCode = typeof code === "string" && code !== "" && !isNaN(Number(code)) ? Number(code) : code;
    this.errorMessage = field(message, "ErrorMessage");
    this.data = field(message, "Data");
    if (this.errorMessage === undefined || this.errorMessage === null) { this.errorMessage = ""; }
    if (this.data === undefined) { this.data = null; }
  }

  /** Whether an answer reports success: a 2xx code, or status "Success" when the code is missing. */
  StoryCLMApiMessage.prototype.isSuccess = function () {
    if (typeof this.errorCode === "number") { return this.errorCode >= 200 && this.errorCode < 300; }
    return typeof this.status === "string" && this.status.toLowerCase() === "success";
  };

  /** The rejection of a Promise-style call: the answer's message, with the answer in `response`. */
  function StoryCLMError(response) {
    var error = new Error(response.errorMessage || ("StoryCLM call failed with code " + response.errorCode));
    Object.setPrototypeOf(error, StoryCLMError.prototype);
    error.name = "StoryCLMError";
    error.response = response;
    error.status = response.status;
    error.errorCode = response.errorCode;
    error.errorMessage = response.errorMessage;
    error.data = response.data;
    return error;
  }
  StoryCLMError.prototype = Object.create(Error.prototype, { constructor: { value: StoryCLMError } });

  function clientError(code, text) {
    return new StoryCLMApiMessage({ Status: "Failure", ErrorCode: code, ErrorMessage: text, Data: null });
  }

  function parametersError(detail) {
    return clientError(ErrorCodes.PARAMETERS, "Error Parameters: " + detail);
  }

  // ---- Randomness and GUIDs --------------------------------------------------------------------------

  function randomBytes(count) {
    var bytes = new Uint8Array(count);
    var crypto = root && root.crypto;
    if (crypto && typeof crypto.getRandomValues === "function") {
      crypto.getRandomValues(bytes);
    } else if (typeof require === "function") {
      bytes.set(require("crypto").randomBytes(count));
    } else {
      for (var i = 0; i < count; i++) { bytes[i] = Math.floor(Math.random() * 256); }
    }
    return bytes;
  }

  function hex(bytes) {
    var text = "";
    for (var i = 0; i < bytes.length; i++) { text += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16); }
    return text;
  }

  /** GUID_<counter><16 random bytes as hex>, the counter starting at a random value per client. */
  function guidGenerator() {
    var start = randomBytes(4);
    var counter = ((start[0] << 16) | (start[1] << 8) | start[2]) * 64 + (start[3] & 63);
    return function () { return "GUID_" + (counter++) + hex(randomBytes(16)); };
  }

  // ---- Base64 bodies (Http.*) ------------------------------------------------------------------------

  function utf8Bytes(text) {
    if (typeof TextEncoder === "function") { return new TextEncoder().encode(text); }
    var binary = unescape(encodeURIComponent(text));
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) { bytes[i] = binary.charCodeAt(i); }
    return bytes;
  }

  function bytesOf(body) {
    if (typeof body === "string") { return utf8Bytes(body); }
    if (typeof ArrayBuffer === "function" && body instanceof ArrayBuffer) { return new Uint8Array(body); }
    if (typeof ArrayBuffer === "function" && ArrayBuffer.isView(body)) {
      return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    }
    return utf8Bytes(JSON.stringify(body));
  }

  /** Base64 of a body: a string (as UTF-8), bytes (ArrayBuffer, typed array, Buffer) or a JSON value. */
  function encodeBody(body) {
    if (body === undefined || body === null) { return ""; }
    var bytes = bytesOf(body);
    var binary = "";
    for (var i = 0; i < bytes.length; i += 0x8000) {
      binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    return btoa(binary);
  }

  /** The bytes of a base64 body. */
  function decodeBodyBytes(base64) {
    var binary = atob(String(base64 || "").replace(/\s+/g, ""));
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) { bytes[i] = binary.charCodeAt(i); }
    return bytes;
  }

  /** A base64 body (or an Http answer, or its data) decoded as UTF-8 text. */
  function decodeBody(body) {
    if (body && typeof body === "object") { body = body.data !== undefined && body.data !== null ? body.data : body; }
    if (body && typeof body === "object") { body = body.body; }
    var bytes = decodeBodyBytes(body);
    if (typeof TextDecoder === "function") { return new TextDecoder("utf-8").decode(bytes); }
    var binary = "";
    for (var i = 0; i < bytes.length; i++) { binary += String.fromCharCode(bytes[i]); }
    return decodeURIComponent(escape(binary));
  }

  // ---- The client ------------------------------------------------------------------------------------

  function report(error) {
    if (root && typeof root.reportError === "function") {
      root.reportError(error);
    } else if (typeof console !== "undefined") {
      console.error(error);
    }
  }

  function isNonEmptyString(value) {
    return typeof value === "string" && value.trim() !== "";
  }

  function isPresentationId(value) {
    return (typeof value === "number" && isFinite(value) && Math.floor(value) === value) ||
      (typeof value === "string" && /^\s*-?\d+\s*$/.test(value));
  }

  function isPlainObject(value) {
    return value !== null && typeof value === "object" && !Array.isArray(value);
  }

  /** Splits a call's arguments into the leading values and a trailing callback. */
  /** storyclm.js's query object for StoryCLM.Tables.Find/Count: TablesQuery().Query("[age][gt][30]").Skip(0).Take(10).Sort(1, "age"). */
  function TablesQuery() {
    if (!(this instanceof TablesQuery)) { return new TablesQuery(); }
    this.skip = 0;
    this.take = 100;
    this.query = "";
    this.sort = -1;
    this.sortfield = "";
  }
  TablesQuery.prototype.Query = function (query) { this.query = query; return this; };
  TablesQuery.prototype.Skip = function (skip) { this.skip = skip; return this; };
  TablesQuery.prototype.Take = function (take) { this.take = take; return this; };
  TablesQuery.prototype.Sort = function (sort, field) { this.sort = sort; this.sortfield = field; return this; };

  function splitCallback(args) {
    var values = Array.prototype.slice.call(args);
    var callback;
    for (var i = values.length - 1; i >= 0; i--) {
      if (typeof values[i] === "function") {
        callback = values[i];
        values = values.slice(0, i);
        break;
      }
      if (values[i] !== undefined) { break; }
    }
    return { values: values, callback: callback };
  }

  /**
   * A StoryCLM API object over a transport ({start(hooks), send(message), close()}).
   *
   * options: transport, timeout (ms, 0 = none; default 35000), timeouts ({command: ms}),
   * loadNavigationData (fetch getNavigationData at once, as storyclm.js does on page load).
   */
  function createClient(options) {
    options = options || {};
    var nextGuid = guidGenerator();
    var pending = {};
    var listeners = {};
    var timeout = DEFAULT_TIMEOUT;
    var timeouts = {};
    var transport = null;
    var fetchedNavigationData = null;
    var legacyQueue = [];

    function configure(settings) {
      settings = settings || {};
      if (typeof settings.timeout === "number" && settings.timeout >= 0) { timeout = settings.timeout; }
      var merged = {};
      var name;
      for (name in DEFAULT_COMMAND_TIMEOUTS) { merged[name] = DEFAULT_COMMAND_TIMEOUTS[name]; }
      for (name in timeouts) { merged[name] = timeouts[name]; }
      for (name in (settings.timeouts || {})) { merged[name] = settings.timeouts[name]; }
      timeouts = merged;
      return client;
    }

    function timeoutFor(command) {
      return Object.prototype.hasOwnProperty.call(timeouts, command) ? timeouts[command] : timeout;
    }

    function settle(guid, message) {
      var entry = pending[guid];
      if (!entry) { return; }
      delete pending[guid];
      if (entry.timer) { clearTimeout(entry.timer); }
      try {
        entry.callback(message);
      } catch (error) {
        report(error);
      }
    }

    function failAll(code, text) {
      for (var guid in pending) {
        if (Object.prototype.hasOwnProperty.call(pending, guid)) { settle(guid, clientError(code, text)); }
      }
    }

    function dispatch(name, data) {
      var named = (listeners[name] || []).slice();
      var all = (listeners["*"] || []).slice();
      for (var i = 0; i < named.length; i++) {
        try { named[i](data, name); } catch (error) { report(error); }
      }
      for (var j = 0; j < all.length; j++) {
        try { all[j](data, name); } catch (error) { report(error); }
      }
    }

    /** Takes one line from the host: a response (to its callback) or an Event (to its listeners). */
    function receive(line) {
      var message = line;
      if (typeof line === "string") {
        try {
          message = JSON.parse(line);
        } catch (error) {
          report(new Error("storyclm.js: ignoring a host message that is not JSON: " + line.slice(0, 200)));
          return;
        }
      }
      if (Array.isArray(message)) {
        for (var i = 0; i < message.length; i++) { receive(message[i]); }
        return;
      }
      if (!isPlainObject(message)) { return; }
      var event = field(message, "Event");
      if (typeof event === "string") {
        var data = field(message, "Data");
        dispatch(event, data === undefined ? null : data);
        return;
      }
      var guid = field(message, "GUID");
      if (typeof guid === "string") { settle(guid, new StoryCLMApiMessage(message)); }
    }

    var hooks = {
      receive: receive,
      closed: function (reason) { failAll(ErrorCodes.TRANSPORT, reason || "the StoryCLM host connection closed"); },
      replace: function (next, unsent) {
        use(next);
        for (var i = 0; i < (unsent || []).length; i++) { transmit(unsent[i]); }
      },
      queue: legacyQueue
    };

    function use(next) {
      transport = next;
      transport.start(hooks);
    }

    function transmit(message) {
      try {
        transport.send(message);
      } catch (error) {
        if (message.GUID) {
          settle(message.GUID, clientError(ErrorCodes.TRANSPORT, "could not send " + message.Command + ": " + error.message));
        }
      }
    }

    /** StoryCLMBridge.Invoke: sends a command; with a callback it gets a GUID and one answer. */
    function invoke(command, data, callback) {
      var message = { Command: command, Data: data === undefined ? {} : data };
      if (typeof callback === "function") {
        var guid = nextGuid();
        message.GUID = guid;
        var entry = { callback: callback, command: command };
        var limit = timeoutFor(command);
        if (limit > 0) {
          entry.timer = setTimeout(function () {
            settle(guid, clientError(ErrorCodes.TIMEOUT, "no answer to " + command + " within " + limit + " ms"));
          }, limit);
        }
        pending[guid] = entry;
      }
      transmit(message);
      return message.GUID;
    }

    function softPromise(executor) {
      var promise = new Promise(executor);
      promise.catch(function () {});
      return promise;
    }

    function reject(callback, message) {
      if (callback) {
        setTimeout(function () { callback(message); }, 0);
        return undefined;
      }
      return softPromise(function (resolve, rejectPromise) { rejectPromise(new StoryCLMError(message)); });
    }

    /** A call with an answer: callback style when given one, else a Promise. */
    function call(command, data, callback) {
      if (callback) {
        invoke(command, data, function (message) { callback(message); });
        return undefined;
      }
      return softPromise(function (resolve, rejectPromise) {
        invoke(command, data, function (message) {
          if (message.isSuccess()) { resolve(message); } else { rejectPromise(new StoryCLMError(message)); }
        });
      });
    }

    /** A call storyclm.js sends without a GUID unless a callback wants the answer. */
    function notify(command, data, callback) {
      if (callback) { return call(command, data, callback); }
      invoke(command, data);
      return Promise.resolve();
    }

    /** Builds API functions: `shape(values)` returns the Data or a parameter error text. */
    function command(name, shape) {
      return function () {
        var parts = splitCallback(arguments);
        var data = shape ? shape.apply(null, parts.values) : {};
        if (data instanceof Invalid) { return reject(parts.callback, parametersError(data.detail)); }
        return call(name, data, parts.callback);
      };
    }

    /** Builds API functions whose command depends on the arguments: `pick(values)` returns {command, data} or Invalid. */
    function routed(pick) {
      return function () {
        var parts = splitCallback(arguments);
        var picked = pick.apply(null, parts.values);
        if (picked instanceof Invalid) { return reject(parts.callback, parametersError(picked.detail)); }
        return call(picked.command, picked.data, parts.callback);
      };
    }

    /** StoryCLM.Tables' calls, as storyclm.js 1.7/2.2 send them (findByQuery also carries tableId). */
    function tablesCall(single, many, key, manyKey) {
      return routed(function (tableId, value) {
        if (!isTableId(tableId)) { return new Invalid("tableId must be a table id"); }
        if (value === undefined || value === null) { return new Invalid(key + " is missing"); }
        var data = { tableId: Number(tableId) };
        if (Array.isArray(value)) { data[manyKey] = value; return { command: many, data: data }; }
        data[key] = value;
        return { command: single, data: data };
      });
    }

    function isTableId(value) {
      return (typeof value === "number" || (typeof value === "string" && /^\d+$/.test(value))) && Number(value) >= 0;
    }

    function tablesFind(tableId, query) {
      if (!isTableId(tableId)) { return new Invalid("tableId must be a table id"); }
      if (typeof query === "string") { return { command: "findById", data: { tableId: Number(tableId), id: query } }; }
      if (Array.isArray(query)) { return { command: "findByIds", data: { tableId: Number(tableId), ids: query } }; }
      if (!isPlainObject(query) && !(query instanceof TablesQuery)) {
        return new Invalid("query must be an id, an array of ids or a TablesQuery");
      }
      var data = { tableId: Number(tableId), skip: 0, take: 100, query: "", sort: -1, sortfield: "" };
      for (var name in data) { if (name !== "tableId" && query[name] !== undefined) { data[name] = query[name]; } }
      return { command: "findByQuery", data: data };
    }

    function tablesCount(tableId, query) {
      if (!isTableId(tableId)) { return new Invalid("tableId must be a table id"); }
      if (query === undefined || query === null) { return { command: "count", data: { tableId: Number(tableId) } }; }
      var text = typeof query === "string" ? query : query && query.query;
      if (typeof text !== "string") { return new Invalid("query must be TablesQuery text or a TablesQuery"); }
      return { command: "countByQuery", data: { tableId: Number(tableId), query: text } };
    }

    function Invalid(detail) { this.detail = detail; }

    function keyShape(key) {
      return isNonEmptyString(key) ? { key: key } : new Invalid("key must be a non-empty string");
    }

    function languageShape(language) {
      if (language === undefined || language === null || language === "") { return {}; }
      return typeof language === "string" ? { language: language } : new Invalid("language must be a string such as \"en\"");
    }

    function topicShape(topic) {
      return isNonEmptyString(topic) ? { topic: topic } : new Invalid("topic must be a non-empty string");
    }

    function stringValue(value) {
      if (value === undefined || value === null) { return ""; }
      return typeof value === "object" ? JSON.stringify(value) : String(value);
    }

    function httpShape(withBody) {
      return function (url, a, b) {
        if (!isNonEmptyString(url)) { return new Invalid("url must be a non-empty string"); }
        var body = withBody ? a : undefined;
        var headers = withBody ? b : a;
        if (headers !== undefined && headers !== null && !isPlainObject(headers)) {
          return new Invalid("headers must be an object of strings");
        }
        var data = { url: url, headers: headers || {} };
        if (withBody) { data.body = encodeBody(body); }
        return data;
      };
    }

    var client = {
      Version: VERSION,
      Go: function () {
        var parts = splitCallback(arguments);
        var slideName = parts.values[0];
        var data = parts.values[1];
        if (!isNonEmptyString(slideName)) { return reject(parts.callback, parametersError("slideName must be a non-empty string")); }
        if (data !== undefined && data !== null && !isPlainObject(data)) {
          return reject(parts.callback, parametersError("data must be an object"));
        }
        return call("go", { slideName: slideName, data: data || {} }, parts.callback);
      },
      SendCommand: function () {
        var parts = splitCallback(arguments);
        var name = parts.values[0];
        if (!isNonEmptyString(name)) { return reject(parts.callback, parametersError("command must be a non-empty string")); }
        return call(name, parts.values[1] === undefined ? {} : parts.values[1], parts.callback);
      },
      GetNavigationData: function () {
        return (root && root.StoryCLMNavigationData) || fetchedNavigationData || {};
      },
      System: { GetInfo: command("getAppInfo") },
      User: { Get: command("getUserInfo") },
      Geolocation: { Get: command("getGeoLocationInfo") },
      Presentation: {
        Open: command("open", function (presId, slideName, data) {
          if (!isPresentationId(presId)) { return new Invalid("presId must be a presentation id"); }
          if (slideName !== undefined && slideName !== null && typeof slideName !== "string") {
            return new Invalid("slideName must be a string");
          }
          if (data !== undefined && data !== null && !isPlainObject(data)) { return new Invalid("data must be an object"); }
          return { presId: Number(presId), slideName: slideName || "", data: data || {} };
        }),
        Close: function () {
          var parts = splitCallback(arguments);
          var mode = parts.values[0] === undefined || parts.values[0] === null ? 0 : Number(parts.values[0]);
          if (mode !== 0 && mode !== 1 && mode !== 2) {
            return reject(parts.callback, parametersError("mode must be 0 (close button), 1 (save session) or 2 (test)"));
          }
          return notify("closePresentation", { mode: mode }, parts.callback);
        },
        GetInfo: command("getPresentationInfo"),
        GetPreviousSlide: command("getPreviousSlide"),
        GetNextSlide: command("getNextSlide"),
        GetBackForwardList: command("getBackForwardList"),
        GetBackForwardPresList: command("getBackForwardPresList"),
        GetPresentations: command("getPresentations"),
        GetCurrentSlideName: command("getCurrentSlideName")
      },
      Mediafiles: {
        GetMediaFiles: command("getMediaFiles"),
        OpenMediaFile: command("openMediaFile", function (name, id) {
          if (!isNonEmptyString(name)) { return new Invalid("name must be a media file name"); }
          if (id !== undefined && id !== null && !isPresentationId(id)) { return new Invalid("id must be a presentation id or -1"); }
          return { id: id === undefined || id === null ? -1 : Number(id), name: name };
        }),
        OpenMediaLibrary: command("openMediaLibrary"),
        HideMediaLibraryBtn: command("hideMediaLibraryBtn"),
        ShowMediaLibraryBtn: command("showMediaLibraryBtn")
      },
      Map: {
        GetMap: command("getMap"),
        HideMapBtn: command("hideMapBtn"),
        ShowMapBtn: command("showMapBtn")
      },
      UI: {
        HideCloseBtn: command("hideCloseBtn"),
        HideMapBtn: command("hideMapBtn"),
        HideSystemBtns: command("hideSystemBtns")
      },
      Sessions: {
        Get: command("getSessions"),
        GetCurrent: command("getCurrentSessions"),
        GetById: command("getSessionById", function (id) {
          return isNonEmptyString(id) ? { id: id } : new Invalid("id must be a session id");
        }),
        SetComplete: function () {
          return notify("setSessionComplete", {}, splitCallback(arguments).callback);
        }
      },
      CustomEvents: {
        Set: command("setCustomEvent", function (key, value) {
          return isNonEmptyString(key) ? { key: key, value: stringValue(value) } : new Invalid("key must be a non-empty string");
        }),
        Get: command("getCustomEventByKey", keyShape),
        Delete: command("deleteCustomEventByKey", keyShape),
        GetObject: command("getCustomEventsObject", function (sessionId, contentId) {
          return { sessionId: sessionId ? String(sessionId) : "", contentId: contentId ? String(contentId) : "" };
        })
      },
      DeepLinking: {
        Inbound: { GetData: command("getDeepLinkingInboundData") },
        Outbound: {
          GetData: command("getDeepLinkingOutboundData"),
          SetScheme: command("setDeepLinkingOutboundScheme", function (scheme) {
            return isNonEmptyString(scheme) ? { scheme: scheme } : new Invalid("scheme must be a non-empty string");
          }),
          Set: command("setDeepLinkingOutboundParameter", function (key, value) {
            return isNonEmptyString(key) ? { key: key, value: stringValue(value) } : new Invalid("key must be a non-empty string");
          }),
          Get: command("getDeepLinkingOutboundParameter", keyShape),
          Delete: command("deleteDeepLinkingOutboundParameter", keyShape)
        }
      },
      Http: {
        Get: command("httpget", httpShape(false)),
        Delete: command("httpdelete", httpShape(false)),
        Post: command("httppost", httpShape(true)),
        Put: command("httpput", httpShape(true)),
        EncodeBody: encodeBody,
        DecodeBody: decodeBody
      },
      Tables: {
        Get: command("tables"),
        Count: routed(tablesCount),
        Find: routed(tablesFind),
        Insert: tablesCall("insertEntry", "insertEntries", "entry", "entries"),
        Update: tablesCall("updateEntry", "updateEntries", "entry", "entries"),
        Delete: tablesCall("deleteById", "deleteByIds", "id", "ids")
      },
      TablesQuery: TablesQuery,
      OSAM: {
        VersionControl: command("osam.versionControl", languageShape),
        VersionControlAnswer: command("osam.versionControlAnswer", function (choice, dontShowAgain) {
          if (choice !== "ok" && choice !== "cancel" && choice !== "dismiss") {
            return new Invalid("choice must be \"ok\", \"cancel\" or \"dismiss\"");
          }
          return { choice: choice, dontShowAgain: dontShowAgain === true };
        }),
        Rating: command("osam.rating", languageShape),
        DeviceInformation: command("osam.deviceInformation"),
        AppInformation: command("osam.appInformation"),
        ChangeLanguageEvent: command("osam.changeLanguageEvent", languageShape),
        FirstTimeOrUpdateEvent: command("osam.firstTimeOrUpdateEvent", languageShape),
        SubscribeToCustomTopic: command("osam.subscribeToCustomTopic", topicShape),
        UnsubscribeToCustomTopic: command("osam.unsubscribeToCustomTopic", topicShape),
        GetToken: command("osam.getToken"),
        IsOnline: command("osam.isOnline")
      },
      /** Listens to the host's Event lines ("*" for all); the listener gets (data, name). */
      on: function (name, listener) {
        if (typeof listener !== "function") { throw new TypeError("StoryCLM.on needs a function"); }
        (listeners[name] = listeners[name] || []).push(listener);
        return client;
      },
      /** Removes a listener added with on(). */
      off: function (name, listener) {
        var list = listeners[name] || [];
        var index = list.indexOf(listener);
        if (index >= 0) { list.splice(index, 1); }
        return client;
      },
      /** Changes the time limits: {timeout: ms, timeouts: {command: ms}}; 0 waits for ever. */
      configure: configure,
      /**
       * Closes the transport; answers still outstanding then get -4. In Node this ends `sclm bridge`'s
       * input, lets running commands finish, and resolves with {code, signal} (SIGTERM after `grace` ms).
       */
      close: function (grace) {
        return Promise.resolve(transport.close(grace)).then(function (result) {
          failAll(ErrorCodes.TRANSPORT, "the StoryCLM client was closed");
          return result;
        });
      },
      Bridge: {
        Invoke: invoke,
        /** The queued messages as a JSON array (what the app reads after storyclm:SCLM_QUEUE); empties it. */
        GetQueue: function () {
          var text = JSON.stringify(legacyQueue);
          legacyQueue.length = 0;
          return text;
        },
        /** Delivers an answer or Event line (JSON text or object) from the app, as storyclm.js does. */
        StoryCLMHandler: function (json) {
          setTimeout(function () { receive(json); }, 1);
        },
        /** The navigation data of the last go/open, fetched when the page loaded. */
        GetNavigationData: function () { return fetchedNavigationData || {}; },
        /** The name of the transport in use. */
        Transport: function () { return transport ? transport.name : "none"; }
      }
    };
    client.Bridge.Configure = configure;

    configure(options);
    use(options.transport || nullTransport());
    if (options.loadNavigationData) {
      // storyclm.js asks for the data of the last go/open on every page load.
      invoke("getNavigationData", {}, function (message) {
        if (message.isSuccess() && isPlainObject(message.data)) { fetchedNavigationData = message.data; }
      });
    }
    return client;
  }

  // ---- Transports ------------------------------------------------------------------------------------

  function nullTransport() {
    return {
      name: "none",
      start: function () {},
      send: function () { throw new Error("no transport: use connect() in Node or load storyclm.js in a page"); },
      close: function () {}
    };
  }

  /** StoryCLM's queue: messages wait in a queue the app reads with GetQueue after an iframe ping. */
  function queueTransport(win) {
    var frame = null;
    var queue = null;
    function ping() {
      var document = win.document;
      if (!frame || !frame.parentNode) {
        frame = document.createElement("iframe");
        frame.style.display = "none";
        frame.setAttribute("aria-hidden", "true");
        (document.documentElement || document.body).appendChild(frame);
      }
      frame.src = QUEUE_URL;
    }
    return {
      name: "queue",
      start: function (hooks) { queue = hooks.queue; },
      send: function (message) {
        queue.push(message);
        ping();
      },
      close: function () {}
    };
  }

  /** WKWebView script message handler `storyclm`: each message is posted as JSON text. */
  function webkitTransport(handler) {
    return {
      name: "webkit",
      start: function () {},
      send: function (message) { handler.postMessage(JSON.stringify(message)); },
      close: function () {}
    };
  }

  /**
   * The sclm preview host's relay: a WebSocket carrying bridge lines both ways, plus the host's
   * {"Relay": "navigate" | "open", "url"} instructions (what a WebView app does on slideChanged or
   * mediaFileOpened). Falls back to `fallback()` when the relay never opens.
   */
  function relayTransport(win, url, fallback) {
    var hooks = null;
    var socket = null;
    var opened = false;
    var everOpened = false;
    var outbox = [];

    function follow(instruction) {
      var target = field(instruction, "url");
      if (typeof target !== "string") { return; }
      if (instruction.Relay === "navigate") {
        if (target !== win.location.pathname + win.location.search) { win.location.assign(target); }
      } else if (instruction.Relay === "open" && typeof win.open === "function") {
        win.open(target, "_blank");
      }
    }

    function connect() {
      opened = false;
      socket = new win.WebSocket(url);
      socket.onopen = function () {
        opened = true;
        everOpened = true;
        socket.send(JSON.stringify({ Relay: "hello", page: win.location.pathname }));
        var waiting = outbox;
        outbox = [];
        for (var i = 0; i < waiting.length; i++) { socket.send(JSON.stringify(waiting[i])); }
      };
      socket.onmessage = function (event) {
        var message;
        try { message = JSON.parse(event.data); } catch (error) { return; }
        if (isPlainObject(message) && typeof message.Relay === "string") { follow(message); } else { hooks.receive(message); }
      };
      socket.onclose = function () {
        var wasOpen = opened;
        var unsent = outbox;
        socket = null;
        opened = false;
        outbox = [];
        if (wasOpen) {
          hooks.closed("the sclm preview host closed the connection");
        } else if (everOpened) {
          hooks.closed("could not reconnect to the sclm preview host");
        } else {
          hooks.replace(fallback(), unsent);
        }
      };
    }

    return {
      name: "relay",
      start: function (value) {
        hooks = value;
        connect();
        if (typeof win.addEventListener === "function") {
          win.addEventListener("pageshow", function (event) { if (event.persisted && !socket) { connect(); } });
        }
      },
      send: function (message) {
        if (!socket) { connect(); }
        if (opened) { socket.send(JSON.stringify(message)); } else { outbox.push(message); }
      },
      close: function () { if (socket) { socket.close(); } }
    };
  }

  /** The transport a page uses (see the header comment). */
  function pageTransport(win) {
    var config = win.StoryCLMConfig || {};
    var handlers = win.webkit && win.webkit.messageHandlers;
    var location = win.location || {};
    var queue = function () { return queueTransport(win); };
    var relayUrl = config.relayUrl ||
      ((location.protocol === "https:" ? "wss://" : "ws://") + location.host + RELAY_PATH);
    switch (config.transport) {
    case "queue": return queue();
    case "webkit": return handlers && handlers[WEBKIT_HANDLER] ? webkitTransport(handlers[WEBKIT_HANDLER]) : queue();
    case "relay": return relayTransport(win, relayUrl, queue);
    default:
      if (handlers && handlers[WEBKIT_HANDLER]) { return webkitTransport(handlers[WEBKIT_HANDLER]); }
      if ((location.protocol === "http:" || location.protocol === "https:") && typeof win.WebSocket === "function") {
        return relayTransport(win, relayUrl, queue);
      }
      return queue();
    }
  }

  /** The page's StoryCLM (window.StoryCLM): picks the transport and fetches the navigation data. */
  function createPageClient(win) {
    var config = win.StoryCLMConfig || {};
    return createClient({
      transport: pageTransport(win), timeout: config.timeout, timeouts: config.timeouts, loadNavigationData: true
    });
  }

  /**
   * Node: `sclm bridge` as a child process speaking newline-delimited JSON on stdin/stdout.
   *
   * options: sclm (path; default $SCLM_BIN or "sclm"), home, presentation (required), slide,
   * args (extra arguments for `sclm bridge`), env, stderr ("pipe" keeps the last lines for error
   * messages, "inherit" also copies them to this process's stderr, or a function called per line).
   */
  function stdioTransport(options) {
    options = options || {};
    if (options.presentation === undefined || options.presentation === null || !isPresentationId(options.presentation)) {
      throw new TypeError("connect() needs {presentation: <installed presentation id>}");
    }
    var childProcess = require("child_process");
    var readline = require("readline");
    var program = options.sclm || process.env.SCLM_BIN || "sclm";
    var args = [];
    if (options.home) { args.push("--home", String(options.home)); }
    args.push("bridge", "--presentation", String(options.presentation));
    if (options.slide) { args.push("--slide", String(options.slide)); }
    args = args.concat(options.args || []);
    var child = null;
    var tail = [];
    var hooks = null;
    var finished = null;
    var ended = false;

    function recordStderr(line) {
      tail.push(line);
      if (tail.length > 20) { tail.shift(); }
      if (typeof options.stderr === "function") { options.stderr(line); }
      if (options.stderr === "inherit") { process.stderr.write(line + "\n"); }
    }

    function stop(reason) {
      if (ended) { return; }
      ended = true;
      hooks.closed(reason);
    }

    function start(value) {
      hooks = value;
      child = childProcess.spawn(program, args, { stdio: ["pipe", "pipe", "pipe"], env: options.env || process.env });
      finished = new Promise(function (resolve) {
        child.on("error", function (error) {
          stop("could not start " + program + ": " + error.message + " (build sclm with `swift build`, or give its path)");
          resolve({ code: null, signal: null, error: error });
        });
        child.on("close", function (code, signal) {
          var detail = tail.length ? ": " + tail.join(" | ") : "";
          stop("sclm bridge exited (" + (signal || "code " + code) + ")" + detail);
          resolve({ code: code, signal: signal });
        });
      });
      child.stdin.on("error", function () {});
      readline.createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", function (line) {
        if (line.trim() !== "") { hooks.receive(line); }
      });
      readline.createInterface({ input: child.stderr, crlfDelay: Infinity }).on("line", recordStderr);
    }

    return {
      name: "stdio",
      start: start,
      send: function (message) {
        if (ended || !child.stdin.writable) { throw new Error("sclm bridge is not running"); }
        child.stdin.write(JSON.stringify(message) + "\n");
      },
      /** Ends stdin (sclm finishes and exits 0); SIGTERM after `grace` ms. Resolves with {code, signal}. */
      close: function (grace) {
        if (!child) { return Promise.resolve({ code: null, signal: null }); }
        if (child.stdin.writable) { child.stdin.end(); }
        var timer = setTimeout(function () { child.kill("SIGTERM"); }, grace || 10000);
        return finished.then(function (result) { clearTimeout(timer); return result; });
      },
      /** Resolves with {code, signal} when the process ends. */
      exited: function () { return finished; },
      pid: function () { return child ? child.pid : undefined; }
    };
  }

  /**
   * Node: starts `sclm bridge` for an installed presentation and returns a StoryCLM client for it.
   * The client has every StoryCLM.* call, on/off for Event lines, and close() → Promise<{code, signal}>.
   */
  function connect(options) {
    options = options || {};
    var transport = stdioTransport(options);
    var client = createClient({ transport: transport, timeout: options.timeout, timeouts: options.timeouts });
    client.exited = transport.exited;
    client.pid = transport.pid;
    return client;
  }

  return {
    connect: connect,
    createClient: createClient,
    createPageClient: createPageClient,
    StoryCLMApiMessage: StoryCLMApiMessage,
    StoryCLMError: StoryCLMError,
    ErrorCodes: ErrorCodes,
    encodeBody: encodeBody,
    decodeBody: decodeBody,
    TablesQuery: TablesQuery,
    transports: { queue: queueTransport, webkit: webkitTransport, relay: relayTransport, stdio: stdioTransport },
    version: VERSION
  };
}));
