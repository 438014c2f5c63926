/**
 * Answers requests Node could not even parse (headers over MAX_HEADER_BYTES, malformed request lines, a head that
 * took too long) in the service's `{error, message}` shape, then closes the connection as Node itself would.
 * Nothing of the request reached a route, so there is nothing else to clean up.
 */
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { ErrorBody } from "../domain/errors.js";

interface ClientError extends Error {
  code?: string;
}

export function clientErrorAnswer(err: ClientError): { status: number; body: ErrorBody } {
  if (err.code === "HPE_HEADER_OVERFLOW") {
    return { status: 431, body: { error: "bad_request", message: "The request headers are too large." } };
  }
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return { status: 408, body: { error: "bad_request", message: "The request took too long to arrive." } };
  }
  return { status: 400, body: { error: "bad_request", message: "Malformed HTTP request." } };
}

export function answerClientError(err: ClientError, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const { status, body } = clientErrorAnswer(err);
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  }
  socket.destroy();
}
