import type { Endpoint } from "../../http/endpoint";

export const marketEndpoints: Endpoint[] = [];
