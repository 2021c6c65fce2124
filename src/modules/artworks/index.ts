import type { Endpoint } from "../../http/endpoint";

export const artworkEndpoints: Endpoint[] = [];
