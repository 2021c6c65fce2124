// Files imported as text (migrations) or as embedded file paths (native libraries, UI assets).
declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.so" {
  const path: string;
  export default path;
}
