// GitLab's two error shapes: helpers render `{"message": ...}`, Grape parameter validation renders
// `{"error": "..."}` (lib/api/helpers.rb render_api_error!; lib/api/api.rb rescue_from). Routes throw these; the server's error handler renders them.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** GitLab's JSON error body, or a plain text (the 301 of a moved project). */
    readonly body: Record<string, unknown> | string,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'string' ? body : typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : `HTTP ${status}`);
  }
}

export const badRequest = (reason?: string) => new ApiError(400, { message: reason ? `400 Bad request - ${reason}` : '400 Bad request' });
export const unauthorized = () => new ApiError(401, { message: '401 Unauthorized' });
export const forbidden = (reason?: string) => new ApiError(403, { message: reason ? `403 Forbidden - ${reason}` : '403 Forbidden' });
/** `not_found!('Project')` → "404 Project Not Found"; bare → "404 Not Found". */
export const notFound = (resource?: string) => new ApiError(404, { message: resource ? `404 ${resource} Not Found` : '404 Not Found' });
/** ActiveRecord::RecordNotFound: lowercase "found". */
export const recordNotFound = () => new ApiError(404, { message: '404 Not found' });
export const conflict = (message = '409 Conflict') => new ApiError(409, { message });
export const unprocessable = () => new ApiError(422, { message: '422 Unprocessable Entity' });
/** A service error rendered with `render_api_error!(message, status)`. */
export const apiError = (status: number, message: unknown) => new ApiError(status, { message });
/** Grape parameter validation: 400 `{"error": "<param> is missing"}` and friends. */
export const paramError = (text: string) => new ApiError(400, { error: text });
/** A model validation failure: `{"message": {"field": ["text"]}}`. */
export const validationError = (fields: Record<string, string[]>) => new ApiError(400, { message: fields });
export const insufficientScope = (scopes: string[]) =>
  new ApiError(403, {
    error: 'insufficient_scope',
    error_description: 'The request requires higher privileges than provided by the access token.',
    scope: scopes.join(' '),
  });
