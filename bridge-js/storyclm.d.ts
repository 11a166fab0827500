// TypeScript declarations for storyclm.js (sclm), API-compatible with storyclm.js 2.2.
//
// In a page:   <script src="js/storyclm.js"></script>  →  window.StoryCLM, window.StoryCLMBridge
// In Node:     const { connect } = require("./storyclm.js")  or  import { connect } from "./storyclm.js"

/** A host's answer as callbacks receive it (storyclm.js' StoryCLMApiMessage). */
export declare class StoryCLMApiMessage<T = any> {
  constructor(message: unknown);
  /** "Success", "Failure", or an HTTP reason phrase for Http.* ("no error", "created", …). */
  status: string;
  /** 200 on success; HTTP-like codes from the host; negative codes from this library (see ErrorCodes). */
  errorCode: number;
  errorMessage: string;
  data: T;
  /** A 2xx code (or status "Success" without a code). */
  isSuccess(): boolean;
}

/** The rejection of a Promise-style call. */
export declare class StoryCLMError<T = any> extends Error {
  name: "StoryCLMError";
  response: StoryCLMApiMessage<T>;
  status: string;
  errorCode: number;
  errorMessage: string;
  data: T;
}

/** Codes this library produces itself. */
export declare const ErrorCodes: {
  /** No answer within the time limit. */
  readonly TIMEOUT: -1;
  /** The answer was empty (storyclm.js: "Data is empty"). */
  readonly EMPTY: -2;
  /** Wrong parameters, nothing was sent (storyclm.js: "Error Parameters"). */
  readonly PARAMETERS: -3;
  /** The transport closed or could not start (sclm bridge exited, preview host gone). */
  readonly TRANSPORT: -4;
};

export type Callback<T = any> = (message: StoryCLMApiMessage<T>) => void;
/** Every call takes an optional trailing callback; without one it returns a Promise. */
export type Call<Args extends any[], T = any> = {
  (...args: [...Args, Callback<T>]): void;
  (...args: Args): Promise<StoryCLMApiMessage<T>>;
};

export interface AppInfo { localization: string; osVersion: string; os: string; device: string; appVersion: string; appName?: string }
export interface UserInfo { id: string; username: string }
export interface GeoLocationInfo { latitude: string; longtitude: string; longitude?: string; address: string }
export interface PresentationInfo {
  presentationId: number; name: string; revision: number; status: number; order: number;
  shortDescription?: string; shortdescription?: string; longDescription: string; slidesCount: number; mediaFilesCount: number;
}
export interface SlideName { slide: string }
export interface PresentationRef { name: string; presId: number }
export interface MediaFileInfo { title: string; fileName: string }
export interface SessionSummary { sessionId: string; presentationId: string; created: string }
export interface SessionDetails {
  sessionId: string; presentationId: string | number; userId?: string | null; state: number; complete: boolean | number;
  created: string; timeZone?: number; latitude?: number | null; longitude?: number | null; duration: number;
  slidesCount: number; slides: Array<{ id?: number | null; name: string; duration: number; created: string }>;
  [key: string]: unknown;
}
export interface HttpAnswer { headers: Record<string, string>; body: string }
export type HttpBody = string | ArrayBuffer | ArrayBufferView | object | null | undefined;
export type Headers = Record<string, string>;
export type Language = "ca" | "es" | "en" | string;

/** storyclm.js's query for StoryCLM.Tables: TablesQuery().Query("[age][gt][30]").Skip(0).Take(10).Sort(1, "age"). */
export declare class TablesQuery {
  constructor();
  skip: number;
  take: number;
  query: string;
  sort: number;
  sortfield: string;
  Query(query: string): this;
  Skip(skip: number): this;
  Take(take: number): this;
  Sort(sort: number, field: string): this;
}
export type TableEntry = Record<string, unknown> & { _id?: string };
export interface TableInfo { id: number; name: string; schema: Array<{ k: string; t: string }>; created: string }

export interface StoryCLMEvents {
  presentationOpened: { presId: number; name: string; slide: string; sessionId: string; isRestored: boolean };
  slideChanged: { slide: string; previous: string | null };
  presentationClosed: { presId: number; name: string; mode: number | null; sessionId: string; state: number };
  mediaFileOpened: { name: string; presId: number; path: string; mimeType: string | null };
  mediaLibraryOpened: { presId: number };
  uiChanged: { command: string; closeButtonHidden: boolean; systemButtonsHidden: boolean; mediaLibraryButtonHidden: boolean; mapButtonHidden: boolean };
  osamAlert: Record<string, unknown>;
  [event: string]: unknown;
}

export interface Settings {
  /** Milliseconds to wait for an answer (default 35000; 0 = no limit). */
  timeout?: number;
  /** Per-command limits; openMediaFile and openMediaLibrary default to 0 (they answer when a viewer closes). */
  timeouts?: Record<string, number>;
}

export interface StoryCLMBridgeObject {
  /** Sends a command; with a callback it carries a GUID and gets exactly one answer. Returns the GUID. */
  Invoke(command: string, data?: unknown, callback?: Callback): string | undefined;
  /** The queued messages as a JSON array, emptying the queue (the app calls it after storyclm:SCLM_QUEUE). */
  GetQueue(): string;
  /** Delivers an answer or Event line from the app (JSON text or an object). */
  StoryCLMHandler(json: string | object): void;
  /** The navigation data of the last go/open, fetched when the page loaded. */
  GetNavigationData(): Record<string, unknown>;
  /** "queue", "webkit", "relay", "stdio" or a custom transport's name. */
  Transport(): string;
  Configure(settings: Settings): StoryCLM;
}

export interface StoryCLM {
  readonly Version: string;
  Go: Call<[slideName: string, data?: Record<string, unknown>], {}>;
  SendCommand: Call<[command: string, data?: unknown]>;
  /** window.StoryCLMNavigationData, else the data fetched on load, else {}. */
  GetNavigationData(): Record<string, unknown>;
  System: { GetInfo: Call<[], AppInfo> };
  User: { Get: Call<[], UserInfo> };
  Geolocation: { Get: Call<[], GeoLocationInfo> };
  Presentation: {
    Open: Call<[presId: number | string, slideName?: string, data?: Record<string, unknown>], {}>;
    /** 0 close button, 1 close and complete the session, 2 close as a test. Sent without a GUID unless a callback is given. */
    Close(mode?: 0 | 1 | 2, callback?: Callback): Promise<void> | void;
    GetInfo: Call<[], PresentationInfo>;
    GetPreviousSlide: Call<[], SlideName>;
    GetNextSlide: Call<[], SlideName>;
    GetBackForwardList: Call<[], string[]>;
    GetBackForwardPresList: Call<[], PresentationRef[]>;
    GetPresentations: Call<[], PresentationRef[]>;
    GetCurrentSlideName: Call<[], SlideName>;
  };
  Mediafiles: {
    GetMediaFiles: Call<[], MediaFileInfo[]>;
    /** id: a presentation id, or -1 (default) for the open one. Answers when the viewer closes. */
    OpenMediaFile: Call<[name: string, id?: number | string], { name: string; status: string }>;
    OpenMediaLibrary: Call<[], { status: string }>;
    HideMediaLibraryBtn: Call<[]>;
    ShowMediaLibraryBtn: Call<[]>;
  };
  Map: { GetMap: Call<[], Record<string, string[]>>; HideMapBtn: Call<[]>; ShowMapBtn: Call<[]> };
  UI: { HideCloseBtn: Call<[]>; HideMapBtn: Call<[]>; HideSystemBtns: Call<[]> };
  Sessions: {
    Get: Call<[], SessionSummary[]>;
    GetCurrent: Call<[], SessionDetails>;
    GetById: Call<[id: string], SessionDetails>;
    /** Sent without a GUID unless a callback is given. */
    SetComplete(callback?: Callback): Promise<void> | void;
  };
  CustomEvents: {
    /** Non-string values are sent as text (objects as JSON). */
    Set: Call<[key: string, value: unknown]>;
    Get: Call<[key: string], { value: string }>;
    Delete: Call<[key: string], { key: string }>;
    GetObject: Call<[sessionId?: string, contentId?: string | number], Record<string, string>>;
  };
  DeepLinking: {
    Inbound: { GetData: Call<[]> };
    Outbound: {
      GetData: Call<[]>;
      SetScheme: Call<[scheme: string]>;
      Set: Call<[key: string, value: unknown]>;
      Get: Call<[key: string], { value: string }>;
      Delete: Call<[key: string], { key: string }>;
    };
  };
  Http: {
    Get: Call<[url: string, headers?: Headers], HttpAnswer>;
    Delete: Call<[url: string, headers?: Headers], HttpAnswer>;
    /** The body is sent base64-encoded: strings as UTF-8, bytes as they are, other values as JSON. */
    Post: Call<[url: string, body?: HttpBody, headers?: Headers], HttpAnswer>;
    Put: Call<[url: string, body?: HttpBody, headers?: Headers], HttpAnswer>;
    EncodeBody(body: HttpBody): string;
    /** A base64 body (or an Http answer, or its data) as UTF-8 text. */
    DecodeBody(body: string | HttpAnswer | StoryCLMApiMessage<HttpAnswer>): string;
  };
  /** StoryCLM Tables through the StoryCLM API (online only); Data is the API's JSON. */
  Tables: {
    Get: Call<[], TableInfo[]>;
    /** count, or countByQuery with TablesQuery text or a TablesQuery. */
    Count: Call<[tableId: number | string, query?: string | TablesQuery], { count: number }>;
    /** An id (findById), ids (findByIds) or a TablesQuery (findByQuery, sent with its tableId). */
    Find: Call<[tableId: number | string, query: string | string[] | TablesQuery], TableEntry | TableEntry[]>;
    Insert: Call<[tableId: number | string, entry: TableEntry | TableEntry[]], TableEntry | TableEntry[]>;
    Update: Call<[tableId: number | string, entry: TableEntry | TableEntry[]], TableEntry | TableEntry[]>;
    Delete: Call<[tableId: number | string, id: string | string[]], TableEntry | TableEntry[]>;
  };
  TablesQuery: typeof TablesQuery;
  OSAM: {
    VersionControl: Call<[language?: Language]>;
    VersionControlAnswer: Call<[choice: "ok" | "cancel" | "dismiss", dontShowAgain?: boolean]>;
    Rating: Call<[language?: Language]>;
    DeviceInformation: Call<[]>;
    AppInformation: Call<[]>;
    ChangeLanguageEvent: Call<[language: Language]>;
    FirstTimeOrUpdateEvent: Call<[language?: Language]>;
    SubscribeToCustomTopic: Call<[topic: string]>;
    UnsubscribeToCustomTopic: Call<[topic: string]>;
    GetToken: Call<[]>;
    IsOnline: Call<[]>;
  };
  /** Listens to the host's Event lines; "*" receives every event. */
  on<K extends keyof StoryCLMEvents & string>(event: K | "*", listener: (data: StoryCLMEvents[K], name: string) => void): StoryCLM;
  off(event: string, listener: (...args: any[]) => void): StoryCLM;
  configure(settings: Settings): StoryCLM;
  /** Closes the transport; outstanding calls get -4. In Node resolves when sclm bridge has exited. */
  close(grace?: number): Promise<{ code: number | null; signal: string | null } | undefined>;
  Bridge: StoryCLMBridgeObject;
}

export interface Transport {
  readonly name: string;
  start(hooks: { receive(line: string | object): void; closed(reason?: string): void; replace(next: Transport, unsent?: object[]): void; queue: object[] }): void;
  send(message: { Command: string; Data: unknown; GUID?: string }): void;
  close(grace?: number): unknown;
}

export interface ConnectOptions extends Settings {
  /** The installed presentation to open. */
  presentation: number | string;
  /** The sclm executable (default $SCLM_BIN, else "sclm" on PATH). */
  sclm?: string;
  /** sclm's home (--home). */
  home?: string;
  /** The slide to start on (--slide). */
  slide?: string;
  /** More arguments for `sclm bridge` (e.g. ["--module", "x=./x.sh"]). */
  args?: string[];
  env?: Record<string, string | undefined>;
  /** "pipe" (default: keep the last lines for error messages), "inherit", or a function per line. */
  stderr?: "pipe" | "inherit" | ((line: string) => void);
}

export interface NodeClient extends StoryCLM {
  /** Ends sclm bridge's input, waits for it to exit (SIGTERM after `grace` ms, default 10000). */
  close(grace?: number): Promise<{ code: number | null; signal: string | null }>;
  exited(): Promise<{ code: number | null; signal: string | null; error?: Error }>;
  pid(): number | undefined;
}

/** Node: starts `sclm bridge --presentation ID` and returns a client for it. */
export declare function connect(options: ConnectOptions): NodeClient;
/** A client over any transport. */
export declare function createClient(options?: Settings & { transport?: Transport; loadNavigationData?: boolean }): StoryCLM;
/** The client a page gets as window.StoryCLM. */
export declare function createPageClient(win: Window): StoryCLM;
export declare function encodeBody(body: HttpBody): string;
export declare function decodeBody(body: string | HttpAnswer | StoryCLMApiMessage<HttpAnswer>): string;
export declare const transports: {
  queue(win: Window): Transport;
  webkit(handler: { postMessage(body: string): void }): Transport;
  relay(win: Window, url: string, fallback: () => Transport): Transport;
  stdio(options: ConnectOptions): Transport;
};
export declare const version: string;

declare global {
  interface Window {
    StoryCLM: StoryCLM;
    StoryCLMBridge: StoryCLMBridgeObject;
    /** Set before loading storyclm.js to pick the transport or change time limits. */
    StoryCLMConfig?: Settings & { transport?: "queue" | "webkit" | "relay"; relayUrl?: string };
    StoryCLMNavigationData?: Record<string, unknown>;
  }
  const StoryCLM: StoryCLM;
  const StoryCLMBridge: StoryCLMBridgeObject;
}
