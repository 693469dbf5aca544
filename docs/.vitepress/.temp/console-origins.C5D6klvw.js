const _imports_1 = "/assets/console-origins.CKN12fVE.png";
export {
  _imports_1 as _
};
