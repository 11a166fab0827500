"use strict";
// A small RFC 6455 WebSocket on Node built-ins: the server side for host.js (the page's relay) and the
// client side for tools and tests (e.g. the Chrome DevTools protocol). Text and binary messages,
// fragmentation, ping/pong, the close handshake and a message size limit; no extensions.
const crypto = require("crypto");
const http = require("http");
const { EventEmitter } = require("events");

const ACCEPT_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
const OPCODES = { continuation: 0, text: 1, binary: 2, close: 8, ping: 9, pong: 10 };
/** Default largest message accepted (the bridge's own line limit). */
const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

function acceptKey(key) {
  return crypto.createHash("sha1").update(key + ACCEPT_GUID).digest("base64");
}

/**
 * One open WebSocket. Events: "message" (string for text, Buffer for binary), "close" (code, reason),
 * "error" (Error). `masked` is true on the client side, which must mask what it sends.
 */
class WebSocketConnection extends EventEmitter {
  constructor(socket, { masked, maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES }) {
    super();
    this.socket = socket;
    this.masked = masked;
    this.maxMessageBytes = maxMessageBytes;
    this.buffer = Buffer.alloc(0);
    this.fragments = [];
    this.fragmentOpcode = 0;
    this.fragmentBytes = 0;
    this.closeSent = false;
    this.closed = false;
    socket.setNoDelay(true);
    socket.on("data", (chunk) => this.receive(chunk));
    socket.on("error", (error) => this.emit("error", error));
    socket.on("close", () => this.finish(1006, "connection lost"));
  }

  /** True until the connection closes. */
  get isOpen() {
    return !this.closed && !this.closeSent;
  }

  /** Sends a text message (a string) or a binary one (a Buffer). */
  send(data) {
    if (!this.isOpen) { return false; }
    const binary = Buffer.isBuffer(data);
    return this.writeFrame(binary ? OPCODES.binary : OPCODES.text, binary ? data : Buffer.from(String(data), "utf8"));
  }

  /** Starts the close handshake; the socket ends when the peer answers (or after a second). */
  close(code = 1000, reason = "") {
    if (this.closeSent || this.closed) { return; }
    const payload = Buffer.alloc(2 + Buffer.byteLength(reason));
    payload.writeUInt16BE(code, 0);
    payload.write(reason, 2);
    this.writeFrame(OPCODES.close, payload);
    this.closeSent = true;
    setTimeout(() => this.socket.destroy(), 1000).unref();
  }

  writeFrame(opcode, payload) {
    const length = payload.length;
    const header = [0x80 | opcode];
    const maskBit = this.masked ? 0x80 : 0;
    if (length < 126) {
      header.push(maskBit | length);
    } else if (length < 65536) {
      header.push(maskBit | 126, length >> 8, length & 0xff);
    } else {
      const high = Math.floor(length / 0x100000000);
      header.push(maskBit | 127, (high >> 24) & 0xff, (high >> 16) & 0xff, (high >> 8) & 0xff, high & 0xff,
        (length >>> 24) & 0xff, (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff);
    }
    let body = payload;
    let mask = Buffer.alloc(0);
    if (this.masked) {
      mask = crypto.randomBytes(4);
      body = Buffer.from(payload);
      for (let i = 0; i < body.length; i++) { body[i] ^= mask[i & 3]; }
    }
    return this.socket.write(Buffer.concat([Buffer.from(header), mask, body]));
  }

  receive(chunk) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    while (!this.closed) {
      const frame = this.parseFrame();
      if (!frame) { return; }
      this.handleFrame(frame);
    }
  }

  /** The next complete frame in the buffer, or null when more bytes are needed. */
  parseFrame() {
    const buffer = this.buffer;
    if (buffer.length < 2) { return null; }
    const fin = (buffer[0] & 0x80) !== 0;
    const opcode = buffer[0] & 0x0f;
    const isMasked = (buffer[1] & 0x80) !== 0;
    let length = buffer[1] & 0x7f;
    let offset = 2;
    if (length === 126) {
      if (buffer.length < 4) { return null; }
      length = buffer.readUInt16BE(2);
      offset = 4;
    } else if (length === 127) {
      if (buffer.length < 10) { return null; }
      length = buffer.readUInt32BE(2) * 0x100000000 + buffer.readUInt32BE(6);
      offset = 10;
    }
    if (length > this.maxMessageBytes) {
      this.fail(1009, "message too big");
      return null;
    }
    const maskOffset = offset;
    if (isMasked) { offset += 4; }
    if (buffer.length < offset + length) { return null; }
    const payload = Buffer.from(buffer.subarray(offset, offset + length));
    if (isMasked) {
      for (let i = 0; i < payload.length; i++) { payload[i] ^= buffer[maskOffset + (i & 3)]; }
    }
    this.buffer = buffer.subarray(offset + length);
    return { fin, opcode, isMasked, payload };
  }

  handleFrame({ fin, opcode, isMasked, payload }) {
    if (!this.masked && !isMasked) {
      this.fail(1002, "client frames must be masked");
      return;
    }
    switch (opcode) {
    case OPCODES.ping:
      if (!this.closeSent) { this.writeFrame(OPCODES.pong, payload); }
      return;
    case OPCODES.pong:
      return;
    case OPCODES.close: {
      const code = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
      if (!this.closeSent) {
        this.writeFrame(OPCODES.close, payload.subarray(0, 2));
        this.closeSent = true;
      }
      this.finish(code, payload.subarray(2).toString("utf8"));
      this.socket.end();
      return;
    }
    case OPCODES.text:
    case OPCODES.binary:
    case OPCODES.continuation:
      this.collect(fin, opcode, payload);
      return;
    default:
      this.fail(1002, "unknown opcode " + opcode);
    }
  }

  collect(fin, opcode, payload) {
    if (opcode !== OPCODES.continuation) {
      if (this.fragments.length) { this.fail(1002, "a new message started inside a fragmented one"); return; }
      this.fragmentOpcode = opcode;
    } else if (!this.fragments.length) {
      this.fail(1002, "continuation without a message");
      return;
    }
    this.fragments.push(payload);
    this.fragmentBytes += payload.length;
    if (this.fragmentBytes > this.maxMessageBytes) { this.fail(1009, "message too big"); return; }
    if (!fin) { return; }
    const data = Buffer.concat(this.fragments);
    this.fragments = [];
    this.fragmentBytes = 0;
    this.emit("message", this.fragmentOpcode === OPCODES.text ? data.toString("utf8") : data);
  }

  fail(code, reason) {
    this.close(code, reason);
    this.finish(code, reason);
  }

  finish(code, reason) {
    if (this.closed) { return; }
    this.closed = true;
    this.emit("close", code, reason);
  }
}

/**
 * Completes a WebSocket upgrade on an http.Server "upgrade" event. Answers 400 and returns null when
 * the request is not a version 13 WebSocket handshake.
 */
function acceptWebSocket(request, socket, head, options = {}) {
  const key = request.headers["sec-websocket-key"];
  const upgrade = String(request.headers.upgrade || "").toLowerCase();
  if (upgrade !== "websocket" || !key || request.headers["sec-websocket-version"] !== "13") {
    socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    return null;
  }
  socket.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
    "Sec-WebSocket-Accept: " + acceptKey(key) + "\r\n\r\n");
  const connection = new WebSocketConnection(socket, { masked: false, maxMessageBytes: options.maxMessageBytes });
  if (head && head.length) { connection.receive(head); }
  return connection;
}

/** Opens a client WebSocket to a ws:// URL. Resolves with the connection once the handshake is done. */
function connectWebSocket(url, options = {}) {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    if (target.protocol !== "ws:") { reject(new Error("only ws:// URLs are supported: " + url)); return; }
    const key = crypto.randomBytes(16).toString("base64");
    const request = http.request({
      host: target.hostname,
      port: target.port || 80,
      path: target.pathname + target.search,
      headers: { Connection: "Upgrade", Upgrade: "websocket", "Sec-WebSocket-Key": key, "Sec-WebSocket-Version": "13", ...options.headers }
    });
    request.on("upgrade", (response, socket, head) => {
      if (response.headers["sec-websocket-accept"] !== acceptKey(key)) {
        socket.destroy();
        reject(new Error("the server answered the WebSocket handshake with a wrong accept key"));
        return;
      }
      const connection = new WebSocketConnection(socket, { masked: true, maxMessageBytes: options.maxMessageBytes || 256 * 1024 * 1024 });
      if (head && head.length) { connection.receive(head); }
      resolve(connection);
    });
    request.on("response", (response) => {
      response.resume();
      reject(new Error("WebSocket handshake refused: HTTP " + response.statusCode + " from " + url));
    });
    request.on("error", reject);
    request.end();
  });
}

module.exports = { WebSocketConnection, acceptWebSocket, connectWebSocket, DEFAULT_MAX_MESSAGE_BYTES };
