import type { Endpoint } from "../../http/endpoint";

export const lotEndpoints: Endpoint[] = [];
