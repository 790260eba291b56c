// Entry point placeholder; replaced by the real CLI.
console.log('synctop');
