import type { Endpoint } from "../../http/endpoint";

export const saleEndpoints: Endpoint[] = [];
