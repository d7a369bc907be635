// Appended to the module's glue (--post-js, CMakeLists.txt) so that every exported function
// answers any call without throwing (docs/result-format.md, "Errors"). embind checks a call's
// argument count itself and throws a BindingError before the engine runs: here a function with
// parameters answers a wrong count with the error JSON instead, and one without (version(),
// heapInUse(), ...) ignores extra arguments as JavaScript functions do. planWithProgress's
// onProgress (given a second argument only with a plan so far, as spillway.d.ts says) and
// frontierWithProgress's onFront must be functions, and an exception one throws becomes the
// call's error JSON rather than unwinding through the engine (onProgress's also stops the search). Anything else
// thrown (a trap of the engine) is an internal error's JSON.
addOnPostRun(function () {
  function errorJson(kind, message, where) {
    return JSON.stringify({ error: { kind: kind, message: String(message).replace(/\s+/g, ' '), where: where || {} } });
  }
  function messageOf(e) {
    return e && e.message !== undefined ? e.message : e;
  }
  // The calls whose third argument is a callback, by the parameter's name.
  var callbacks = { planWithProgress: 'onProgress', frontierWithProgress: 'onFront' };
  // The arguments such a call passes on: its callback wrapped to catch what it throws.
  function withSafeCallback(args, thrown, parameter) {
    var callback = args[2];
    if (typeof callback !== 'function')
      return errorJson('input', parameter + ': expected a function, got ' + typeof callback, { field: parameter });
    args[2] = function (json, resultJson) {
      if (thrown.length) return false;
      try {
        return !!(resultJson === undefined ? callback(json) : callback(json, resultJson));
      } catch (e) {
        thrown.push(e);
        return false;
      }
    };
    return null;
  }
  function guard(name, call) {
    var expected = call.argCount;
    Module[name] = function () {
      var args = expected === 0 ? [] : Array.prototype.slice.call(arguments);
      if (args.length !== expected)
        return errorJson('input', name + '() takes ' + expected + ' arguments, got ' + args.length, { field: 'arguments' });
      var thrown = [];
      var parameter = callbacks[name];
      if (parameter) {
        var refused = withSafeCallback(args, thrown, parameter);
        if (refused) return refused;
      }
      var answer;
      try {
        answer = call.apply(null, args);
      } catch (e) {
        return errorJson('internal', name + '(): ' + messageOf(e));
      }
      if (thrown.length) return errorJson('input', parameter + ' threw: ' + messageOf(thrown[0]), { field: parameter });
      return answer;
    };
  }
  Object.keys(Module).forEach(function (name) {
    var f = Module[name];
    if (typeof f === 'function' && typeof f.argCount === 'number') guard(name, f);
  });
});
