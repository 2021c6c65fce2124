import type { Endpoint } from "../../http/endpoint";

export const artistEndpoints: Endpoint[] = [];
