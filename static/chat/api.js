// The HTTP API (CONTRACT §6) as the page uses it: same-origin session, X-CSRFToken on unsafe methods,
// every failure an ApiError with the server's stable code and human message.

export function csrfToken() {
  const cookie = document.cookie.split(";").map((c) => c.trim()).find((c) => c.startsWith("csrftoken="));
  if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
  return document.querySelector("input[name=csrfmiddlewaretoken]")?.value ?? "";
}

export class ApiError extends Error {
  constructor(status, code, message, body = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body; // the whole error body: its fields beside code and message (ask_again, reason, errors)
  }
}

export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") headers["X-CSRFToken"] = csrfToken();
  let response;
  try {
    response = await fetch(path, {
      method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "network_error", "The server could not be reached. Check your connection.");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.status === 401) {
    window.location.assign(`/login/?next=${encodeURIComponent(window.location.pathname)}`);
  }
  if (!response.ok) {
    throw new ApiError(response.status, data?.code ?? `http_${response.status}`,
      data?.message ?? `The server answered ${response.status}.`, data);
  }
  return data;
}
