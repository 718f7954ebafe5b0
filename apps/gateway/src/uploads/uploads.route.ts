import { API_PREFIX } from '../http/api-docs';

/** Signed blob URLs of the local storage driver: `PUT|GET /api/v2/uploads/<token>`. */
export const UPLOADS_PATH = `${API_PREFIX}/uploads`;

/** Requests whose body is the raw file, exempt from the JSON-only body rule. */
export const RAW_BODY_ROUTES = [new RegExp(`^/${UPLOADS_PATH}/[^/]+/?$`)];
