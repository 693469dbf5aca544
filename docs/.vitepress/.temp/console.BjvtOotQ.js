const _imports_0 = "/assets/console.BFXw8Lui.png";
export {
  _imports_0 as _
};
