// Loaded after first paint: LazyMotion renders `m` elements at once and animates them when this arrives.
export { domAnimation as default } from 'framer-motion';
