package dev.stele.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Base of the leaf commands: access to the {@link CliEnvironment} the root command was given. */
public abstract class SteleCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  protected CliEnvironment env() {
    return ((Main) spec.root().userObject()).env;
  }

  protected PrintWriter out() {
    return env().out();
  }

  protected PrintWriter err() {
    return env().err();
  }

  /** Prints a warning line on standard error. */
  protected void warn(String message) {
    err().println("warning: " + message);
  }
}
