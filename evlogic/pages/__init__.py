"""The HTML pages evlogic writes: the rulebook page (``rulebook``), the
balance and tune reports (``balance``, ``tune``) and printing one to PDF
(``pdf``).  Above reports and drawing: a page shows their figures and
diagrams, and computes none (templates in evlogic/templates/)."""
