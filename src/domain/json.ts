/** A value JSON text can hold: what a client's free-form JSON parameter is stored as. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type JsonObject = { [key: string]: JsonValue };
