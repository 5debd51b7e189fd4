package dev.stele.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Base of the leaf commands: access to the {@link CliEnvironment} the root command was given. */
abstract class StelCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  CliEnvironment env() {
    return ((Main) spec.root().userObject()).env;
  }

  PrintWriter out() {
    return env().out();
  }

  PrintWriter err() {
    return env().err();
  }

  /** Prints a warning line on standard error. */
  void warn(String message) {
    err().println("warning: " + message);
  }
}
