// Bun.build bundles imported style sheets; the type checker only needs to know they exist.
declare module "*.css";
